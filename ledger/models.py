"""The database tables: SQLAlchemy 2.0 typed models (``Mapped`` / ``mapped_column``) on db.Model.

create_app imports this module, so every model defined here is known to ``db.create_all()``
and to Alembic's autogenerate.
"""
