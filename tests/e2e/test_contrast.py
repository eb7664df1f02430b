"""Every word a player reads stands out from what is behind it, on a phone set to light and
on one set to dark (issue 37, "a dim pub"): WCAG AA, as Lighthouse's contrast audit counts it
(4.5 to 1, 3 to 1 for large text), measured in Chromium on each page a table uses and on
the states that add colours of their own (a refused hand, a card picker open, a tick).

tests/web/test_style.py checks the stylesheet's pairs of colours; this checks what the pages
really draw with them: a colour set on one element and shown over another's background.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_layout import PASSPHRASE, pages_a_table_uses, table  # noqa: F401

# Every element with words of its own (a text node, or a field's value) that is shown: its
# text colour over the colours behind it (each ancestor's background laid over the next,
# down to the first opaque one), with its opacity; the ones under the AA ratio.
LOW_CONTRAST_JS = """
() => {
  const rgba = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3]));
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const behind = (element) => {
    const layers = [];
    for (let e = element; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.backgroundImage !== "none") return null;  // a picture: not measured
      const colour = rgba(style.backgroundColor);
      if (colour && colour[3] > 0) {
        layers.push(colour);
        if (colour[3] >= 1) break;
      }
    }
    const dark = matchMedia("(prefers-color-scheme: dark)").matches;
    const canvas = dark ? [18, 18, 18] : [255, 255, 255];
    return layers.reverse().reduce((under, top) => over(top, under), canvas);
  };
  const field = (e) => ["INPUT", "SELECT", "TEXTAREA"].includes(e.tagName);
  const typed = (e) => (!["hidden", "checkbox", "radio"].includes(e.type) && e.value) || "";
  const own = (e) => Array.from(e.childNodes).filter((n) => n.nodeType === 3);
  const words = (e) => (field(e) ? typed(e) : own(e).map((n) => n.textContent).join("")).trim();
  const unseen = ".visually-hidden, [hidden], svg, [aria-hidden=true]";
  const low = [];
  for (const e of document.body.querySelectorAll("*")) {
    const text = words(e);
    if (!text || e.closest(unseen) || e.disabled) continue;
    const box = e.getBoundingClientRect();
    const style = getComputedStyle(e);
    if (!box.width || !box.height || style.visibility !== "visible") continue;
    let opacity = 1;
    for (let a = e; a; a = a.parentElement) opacity *= Number(getComputedStyle(a).opacity);
    const back = behind(e);
    if (!back) continue;
    const colour = rgba(style.color);
    const fore = over([colour[0], colour[1], colour[2], colour[3] * opacity], back);
    const [high, dim] = [lum(fore), lum(back)].sort((a, b) => b - a);
    const ratio = (high + 0.05) / (dim + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5) - 0.005) {
      const under = `rgb(${back.map(Math.round)})`;
      low.push(`"${text.slice(0, 40)}" ${style.color} on ${under} ${ratio.toFixed(2)}`);
    }
  }
  return low;
}
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_word_on_every_page_a_table_uses_has_aa_contrast(new_phone, table, scheme):  # noqa: F811
    phone = new_phone(f"contrast-{scheme}", color_scheme=scheme)
    page = phone.page
    phone.sign_in(table["slug"], PASSPHRASE)
    problems: list[str] = []

    def measure(where: str) -> None:
        problems.extend(f"{where}: {low}" for low in page.evaluate(LOW_CONTRAST_JS))

    for address in [*pages_a_table_uses(table), f"/g/{table['slug']}/tab"]:
        response = page.goto(address)
        assert response and response.ok, f"{address}: {response and response.status}"
        measure(address)

    # The states that bring colours of their own: a refused hand's marks, a tick.
    page.goto(f"{table['spot']}/hands/new")
    phone.fill_hand({"Enda": "7 7 7", "John": "7 7", "Rex": "", "Finn": "12"})
    phone.button("Save hand").tap()
    expect(page.get_by_role("alert").first).to_be_visible()
    measure("a refused hand")
    page.goto(f"{table['spot']}/settle")
    page.locator("button.tick").first.tap()
    expect(page.get_by_text("Tap a payment to take its tick back.")).to_be_visible()
    measure("a payment ticked")
    assert not problems, "\n".join(problems)
