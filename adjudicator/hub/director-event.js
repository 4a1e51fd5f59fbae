"use strict";
/* The Event panel: the event from /api/event, changed and saved with the director's key. */
(function () {
  const key = new URLSearchParams(location.search).get("key") || "";
  const api = "api/event?key=" + encodeURIComponent(key);
  const body = document.getElementById("divisions");
  const said = document.getElementById("event-said");
  let lists = [], rules = [], version = -1, editing = false;

  function option(value, chosen) {
    const o = document.createElement("option");
    o.value = o.textContent = value; o.selected = value === chosen; return o;
  }
  function input(value, cls, label) {
    const i = document.createElement("input");
    i.type = "text"; i.value = value || ""; i.className = cls; i.setAttribute("aria-label", label);
    i.addEventListener("input", () => { editing = true; });
    return i;
  }
  function select(values, chosen, cls, label) {
    const s = document.createElement("select");
    s.className = cls; s.setAttribute("aria-label", label);
    if (chosen && !values.includes(chosen)) s.append(option(chosen, chosen));
    values.forEach(v => s.append(option(v, chosen)));
    s.addEventListener("change", () => { editing = true; });
    return s;
  }
  function division(d) {
    const tr = document.createElement("tr");
    const cells = [input(d.name, "dname", "Division"),
                   select(lists, d.lexicon, "list", "List of division " + d.name),
                   select(rules, d.challenge_rule || "5-per-word", "rule", "Challenge rule"),
                   input(d.tables, "tables", "Tables (e.g. 1-20)")];
    const drop = document.createElement("button");
    drop.type = "button"; drop.textContent = "Remove";
    drop.addEventListener("click", () => { tr.remove(); editing = true; });
    cells.push(drop);
    const labels = ["Division", "List", "Challenge rule", "Tables", ""];
    cells.forEach((c, i) => {
      const td = document.createElement("td"); td.append(c); tr.append(td);
      if (labels[i]) td.dataset.label = labels[i];  // said where the rows are cards
    });
    return tr;
  }
  function show(state) {
    lists = state.lists; rules = state.rules; version = state.event ? state.event.event.version : 0;
    document.getElementById("event-config").textContent = state.config || "hub.toml";
    document.getElementById("event-version").textContent =
      state.event ? "(version " + version + ")" : "(none set yet)";
    document.getElementById("event-name").value = state.event ? state.event.event.name : "";
    document.getElementById("event-pin").value = "";
    const pinSaid = document.getElementById("event-pin-said");
    pinSaid.className = state.pin_warning ? "bad" : "muted";
    pinSaid.textContent = state.pin_warning ? "Warning: " + state.pin_warning
      : state.pin_set ? "A PIN is set (leave empty to keep it)" : "No PIN set yet";
    body.replaceChildren(...(state.event ? state.event.division : []).map(division));
    editing = false;
  }
  async function load() {
    try {
      const r = await fetch(api, {cache: "no-store"});
      if (!r.ok) return;
      const state = await r.json();
      const v = state.event ? state.event.event.version : 0;
      if (!editing && v !== version) show(state);
    } catch (e) { /* the live view says when the hub is down */ }
  }
  ["event-name", "event-pin"].forEach(id => document.getElementById(id).addEventListener(
    "input", () => { editing = true; }));
  document.getElementById("add-division").addEventListener("click", () => {
    body.append(division({name: "", lexicon: lists[0] || "", challenge_rule: "5-per-word",
                          tables: ""}));
    editing = true;
  });
  document.getElementById("save-event").addEventListener("click", async () => {
    const change = {name: document.getElementById("event-name").value, version: version,
      pin: document.getElementById("event-pin").value, divisions:
      [...body.rows].map(tr => ({name: tr.querySelector(".dname").value.trim(),
        lexicon: tr.querySelector(".list").value, challenge_rule: tr.querySelector(".rule").value,
        tables: tr.querySelector(".tables").value}))};
    said.className = ""; said.textContent = "saving...";
    try {
      const r = await fetch(api, {method: "POST", body: JSON.stringify(change),
                                  headers: {"Content-Type": "application/json"}});
      const answer = await r.json();
      if (r.status === 409 && answer.stale) show(answer);  // the event as it is now
      if (!r.ok) { said.className = "bad"; said.textContent = "Not saved: " + answer.error; return; }
      show(answer);
      said.textContent = answer.changed ? "Saved (version " + version + "): " + answer.what
                                        : "No change";
    } catch (e) { said.className = "bad"; said.textContent = "Not saved: the hub did not answer"; }
  });
  load();
  setInterval(load, 5000);
})();
