"use strict";
/* The director's hand on a station: Accept, Reject, and Rename in an on-page field (director.js
   draws them in its lists). */
function control(b, focus, act) {  // a button drawn anew at each update: ACT on a click
  // While the hub has not answered, the button says it is busy (aria-disabled) and a second
  // press does nothing; it is never disabled outright, which would drop the keyboard's focus.
  b.type = "button";
  b.dataset.focus = focus;
  const waiting = on => {
    const now = [...document.querySelectorAll("button[data-focus]")]
      .filter(e => e.dataset.focus === focus);
    for (const e of [b, ...now]) {
      if (on) e.setAttribute("aria-disabled", "true"); else e.removeAttribute("aria-disabled");
    }
  };
  if (busy.has(focus)) b.setAttribute("aria-disabled", "true");
  b.addEventListener("click", () => {
    if (busy.has(focus)) return;
    const asked = act();
    if (!asked) return;
    busy.add(focus);
    waiting(true);
    asked.finally(() => { busy.delete(focus); waiting(false); });
  });
  return b;
}
function acceptButton(st, label, title) {
  const b = el("button", label || "Accept", "accept");
  b.title = title || `Accept ${st.name} (from ${st.address}) as one of this event's stations`;
  return control(b, `accept:${label || "Accept"}:${st.key}`,
                 () => askHub("accept", {station: st.key}));
}
// Rename: a field on the page, in the station's row (never a prompt()). The open field is one
// element kept across live updates (moved into the row drawn anew): what is typed in it stays.
let renaming = null;  // {key, form} while a rename is open
function renameButton(st) {  // the one way an accepted station's name changes (POST api/rename)
  if (renaming && renaming.key === st.key) return renaming.form;
  const b = el("button", "Rename", "rename");
  b.title = `Give ${st.name} (from ${st.address}) another name: a station cannot rename itself`;
  b.setAttribute("aria-label", `Rename ${st.name}`);
  return control(b, "rename:" + st.key, () => { openRename(st); return null; });
}
function closeRename(focusButton) {
  const key = renaming && renaming.key;
  renaming = null;
  redraw("stations");
  if (focusButton && key !== null) {
    const b = [...document.querySelectorAll("button[data-focus]")]
      .find(e => e.dataset.focus === "rename:" + key);
    if (b) b.focus({preventScroll: true});
  }
}
function openRename(st) {
  const form = el("form", null, "rename-form");
  const label = el("label", `New name for ${st.name} (from ${st.address})`);
  const field = el("input");
  field.type = "text"; field.value = st.name; field.maxLength = 200;
  field.dataset.focus = "rename-field:" + st.key;
  field.autocomplete = "off"; field.spellcheck = false;
  label.htmlFor = field.id = "rename-" + st.key.replace(/[^A-Za-z0-9_-]/g, "_");
  const save = el("button", "Save name");
  save.type = "submit"; save.dataset.focus = "rename-save:" + st.key;
  const cancel = el("button", "Cancel");
  cancel.type = "button"; cancel.dataset.focus = "rename-cancel:" + st.key;
  const said = el("span", null, "rename-said");
  said.setAttribute("role", "status");
  form.append(label, field, save, cancel, said);
  cancel.addEventListener("click", () => closeRename(true));
  form.addEventListener("keydown", e => {
    if (e.key === "Escape") { e.preventDefault(); closeRename(true); }
  });
  form.addEventListener("submit", e => {
    e.preventDefault();
    const name = field.value.trim();
    if (!name || name === st.name) { closeRename(true); return; }
    save.disabled = true;
    said.textContent = "renaming...";
    askHub("rename", {station: st.key, name: name})
      .then(r => r.ok ? null : r.json().then(j => `Not renamed: ${j.error || r.status}`,
                                              () => `Not renamed (the hub said ${r.status})`))
      .catch(() => "Not renamed: the hub did not answer")
      .then(refused => {
        save.disabled = false;
        if (refused) { said.textContent = refused; field.focus(); return; }
        closeRename(true);
      });
  });
  renaming = {key: st.key, form};
  redraw("stations");
  field.focus({preventScroll: true});
  field.select();
}
function rejectButton(w) {
  const b = el("button", "Reject", "reject");
  b.title = `Not one of this event's stations: refuse ${w.name} (from ${w.address}) from now on`;
  return control(b, "reject:" + w.key, () => {
    if (!confirm(`Reject ${w.name} (from ${w.address})? It is refused from now on; its rows ` +
                 "stay in the hub's journal, counted nowhere.")) return null;
    return askHub("reject", {station: w.key});
  });
}
