"""The web pages: one blueprint module per area, with its WTForms beside it."""
