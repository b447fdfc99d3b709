// The phone page: one WebSocket, every text from the server in the phone's language, no build step.
"use strict";
(function () {
  const page = location.pathname.replace(/\/+$/, "");
  const $ = (id) => document.getElementById(id);
  const pick = (list) => (list.find((l) => ["hu", "de", "en"].includes(l)) || "en");
  let lang = pick((navigator.languages || [navigator.language || "en"]).map((l) => String(l).slice(0, 2).toLowerCase()));
  let token = "", watching = false, seq = 0, number = 0, ws = null, view = null, wait = 500, gone = false;
  let epoch = "", awaiting = 0;  // the server's run the steps are numbered in; the request still at the table

  function status(text, kind) {
    const box = $("status");
    box.textContent = text || "";
    box.className = kind || "";
    box.hidden = !text;
  }
  function send(message) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message)); }
  function item(text, extra, className) {
    const li = document.createElement("li");
    li.textContent = text;
    if (extra) { const span = document.createElement("span"); span.textContent = " " + extra; li.appendChild(span); }
    if (className) li.className = className;
    return li;
  }
  function fill(id, items) { $(id).replaceChildren(...items); }

  function showSeats(message) {
    $("seats").hidden = false; $("game").hidden = true;
    $("pick").textContent = message.labels.pick_seat; $("title").textContent = message.labels.title;
    fill("seat-list", message.names.map((name, seat) => {
      const b = document.createElement("button");
      b.textContent = name; b.dataset.seat = seat;
      b.onclick = () => send({ t: "join", seat: seat, lang: lang });
      return b;
    }).concat([(() => {
      const b = document.createElement("button");
      b.textContent = message.labels.watch; b.className = "watch";
      b.onclick = () => { watching = true; send({ t: "join", seat: null, lang: lang }); };
      return b;
    })()]));
  }

  function act(choice, option, fields) {
    number += 1;
    const message = { t: "act", token: token, n: number, at: seq, choice: choice, option: option, lang: lang };
    if (fields) message.fields = fields;
    send(message);
  }

  function button(text, className, onclick) {
    const b = document.createElement("button");
    b.className = className; b.textContent = text; b.onclick = onclick;
    return b;
  }

  // A choice's dialog, drawn from its form (the engine's Dialog): each field's options by index; OK sends the indexes.
  function dialog(c, L) {
    const form = document.createElement("div"); form.className = "form";
    const picked = {};
    const ok = button(L.ok, "act usual", () => act(c.index, null, picked));
    const ready = () => { ok.disabled = !c.fields.every((f) => picked[f.name] !== undefined); };
    c.fields.forEach((f) => {
      if (c.dialog === "permutation") {  // every value once, in the order tapped; a second tap takes it back
        const order = [], note = document.createElement("p"); note.className = "note"; note.textContent = L.order_hint;
        const row = document.createElement("div"); row.className = "options";
        const buttons = f.labels.map((text, i) => button(text, "act", () => {
          const at = order.indexOf(i);
          if (at >= 0) order.splice(at, 1); else order.push(i);
          buttons.forEach((b, j) => { const place = order.indexOf(j); b.textContent = (place >= 0 ? `${place + 1}. ` : "") + f.labels[j]; b.classList.toggle("on", place >= 0); });
          if (order.length === f.labels.length) picked[f.name] = order.slice(); else delete picked[f.name];
          ready();
        }));
        row.append(...buttons); form.append(note, row);
      } else if (f.members) {  // a wager's call: its members toggled, the call that they make picked
        const on = [], most = Math.max(...f.members.map((m) => m.length));
        const members = [...new Set(f.members.flat())].sort((a, b) => a - b);
        const row = document.createElement("div"); row.className = "options";
        const note = document.createElement("p"); note.className = "note";
        const buttons = members.map((m) => button(String(m), "act", () => {
          const at = on.indexOf(m);
          if (at >= 0) on.splice(at, 1); else if (on.length < most) on.push(m);
          buttons.forEach((b, j) => b.classList.toggle("on", on.includes(members[j])));
          const key = on.slice().sort((a, b) => a - b).join(",");
          const i = f.members.findIndex((call) => call.slice().sort((a, b) => a - b).join(",") === key);
          if (i >= 0) picked[f.name] = i; else delete picked[f.name];
          note.textContent = i >= 0 ? f.labels[i] : "";
          ready();
        }));
        row.append(...buttons); form.append(row, note);
      } else {  // one value of its options
        const select = document.createElement("select"); select.className = "act"; select.dataset.field = f.name;
        f.labels.forEach((text, i) => { const o = document.createElement("option"); o.value = String(i); o.textContent = text; select.appendChild(o); });
        picked[f.name] = 0;
        select.onchange = () => { picked[f.name] = Number(select.value); };
        form.appendChild(select);
      }
    });
    ready();
    form.appendChild(ok);
    return form;
  }

  function chart(data) {
    const all = data.fortunes.flat(), top = Math.max(1, ...all), width = 360, height = 200;
    const colours = ["#f2c14e", "#8fe3a1", "#7ab8ff", "#ff8a7a", "#d59cff", "#f3f1e7"];
    const lines = data.fortunes.map((series, seat) => {
      const step = width / Math.max(1, series.length - 1);
      const points = series.map((v, i) => `${(i * step).toFixed(1)},${(height - 8 - (v / top) * (height - 16)).toFixed(1)}`).join(" ");
      return `<polyline fill="none" stroke-width="3" stroke="${colours[seat % 6]}" points="${points}"/>`;
    });
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" preserveAspectRatio="none">${lines.join("")}</svg>`;
    $("chart").innerHTML = svg;
    const legend = document.createElement("p");
    data.names.forEach((name, seat) => {
      const mark = document.createElement("span");
      mark.textContent = (seat ? " · " : "") + "■ ";
      mark.style.color = colours[seat % 6];
      legend.append(mark, document.createTextNode(name));
    });
    $("chart").appendChild(legend);
  }

  function render(v) {
    view = v;
    const L = v.labels;
    $("seats").hidden = true; $("game").hidden = false;
    $("title").textContent = L.title;
    for (const key of ["cash", "credit", "fortune", "shares", "market", "history", "choices", "players", "ranking", "chart"]) $("l-" + key).textContent = L[key];
    $("turn").textContent = v.turn.text; $("turn").className = "banner" + (v.turn.mine ? " mine" : "");
    $("said").textContent = v.said;
    $("me").hidden = !v.me; $("shares-box").hidden = !v.me;
    if (v.me) {
      $("me-name").textContent = v.me.name;
      $("cash").textContent = v.me.cash; $("credit").textContent = v.me.credit; $("fortune").textContent = v.me.fortune;
      fill("shares", v.me.shares.length ? v.me.shares.map((s) => item(s.line, s.value)) : [item(L.no_shares)]);
    }
    fill("players", v.players.map((p) => item(p.name, p.fortune, p.me ? "me" : "")));
    fill("market", v.market.map((m) => item(m.company, m.line)));
    fill("history", v.history.slice().reverse().map((h) => item(h)));
    $("end").hidden = !v.finished;
    fill("ranking", v.ranking.map((r) => item(r)));
    if (v.chart) chart(v.chart);
    $("trading-off").hidden = v.trading || !v.turn.mine;
    $("trading-off").textContent = L.trading_off;
    $("choices-box").hidden = v.choices.length === 0;
    fill("choices", v.choices.map((c) => {
      const box = document.createElement("div"); box.className = "choice"; box.dataset.group = c.group;
      const label = document.createElement("div"); label.className = "label"; label.textContent = c.label;
      if (c.dialog) { box.dataset.dialog = c.dialog; box.append(label, dialog(c, L)); return box; }
      const options = document.createElement("div"); options.className = "options";
      if (c.options.length === 0) {
        options.appendChild(button(c.label, "act" + (c.usual ? " usual" : ""), () => act(c.index, null)));
        box.append(options);
      } else {
        c.options.forEach((text, i) => options.appendChild(button(text, "act", () => act(c.index, i))));
        box.append(label, options);
      }
      return box;
    }));
  }

  function receive(event) {
    const m = JSON.parse(event.data);
    if (m.t === "seats") { token = ""; watching = false; seq = 0; showSeats(m); status(m.text || "", m.text ? "bad" : ""); }
    else if (m.t === "waiting") { status(m.text, "wait"); }
    else if (m.t === "joined") {
      if (m.token !== token) { token = m.token; number = 0; seq = 0; }
      if (m.epoch !== epoch) { epoch = m.epoch; seq = 0; }  // the server started again: its steps start anew
      watching = m.seat === null;
      if (!awaiting) status("");
    }
    else if (m.t === "change") {
      if (m.seq < seq) return;  // an old step after a catch-up: already shown
      seq = m.seq;
      if (m.view) render(m.view);
      document.body.dataset.seq = String(seq);
    } else if (m.t === "reply") {
      if (m.ok === null) awaiting = m.n; else if (m.n === awaiting || m.n === null) awaiting = 0;
      status(m.text, m.ok === false ? "bad" : m.ok ? "good" : "");
    } else if (m.t === "gone") { gone = true; token = ""; status(m.text, "bad"); }
  }

  function hello(since) {
    send({ t: "hello", lang: lang, token: token || undefined, watch: watching || undefined, since: since, epoch: epoch || undefined, waiting: awaiting || undefined });
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = ws = new WebSocket(`${scheme}//${location.host}${page}/ws`);
    ws.onopen = () => { wait = 500; if (!gone && !awaiting) status(""); hello(seq); };
    ws.onmessage = (event) => { if (socket === ws) receive(event); };  // never an old connection's words
    ws.onclose = () => {
      if (socket !== ws) return;
      document.body.dataset.connected = "no";
      if (gone) return;
      status(view ? view.labels.offline : "…", "bad");
      setTimeout(connect, wait); wait = Math.min(wait * 2, 4000);
    };
    ws.onopen = ((open) => () => { document.body.dataset.connected = "yes"; open(); })(ws.onopen);
  }

  document.querySelectorAll("#languages button").forEach((b) => {
    b.onclick = () => {
      lang = b.dataset.lang; document.documentElement.lang = lang;
      document.querySelectorAll("#languages button").forEach((o) => o.setAttribute("aria-pressed", String(o === b)));
      hello(Math.max(0, seq - 1));
    };
    b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
  });
  document.documentElement.lang = lang;
  connect();
})();
