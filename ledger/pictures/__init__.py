"""The pictures the pages show, drawn on the server as inline SVG (no script, no image
request, no inline style): the running scores' chart and the QR codes (an invite link, a bank
transfer). Pure drawing: the pages (ledger/web) pass them what to draw and place them."""
