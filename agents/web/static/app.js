// The page of python -m agents.serve. Plain JS, no build step: it asks the server for one viewer's
// picture of a game (the SVG is drawn on the server from that seat's view) and sends moves back.
"use strict";

const $ = (id) => document.getElementById(id);
const ui = {
  catalog: null,
  gameId: null,
  token: null, // the human seat this page plays, if any
  view: null, // for a game without a human seat: "all", "public" or a seat
  step: null, // null: follow the game; a number: looking at that position
  data: null,
  timer: null,
  busy: false,
};

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    // A record file goes as its bytes, so that the server, not the browser, judges its encoding.
    options.body = body instanceof ArrayBuffer ? body : JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data;
  try {
    data = await response.json();
  } catch (err) {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  return data;
}

// -- the new-game form ---------------------------------------------------------------------------
function gameEntry() {
  return ui.catalog.games.find((g) => g.env_id === $("game").value);
}

// The published leaderboard's rating of the agent at this table size, when it has one.
function agentLabel(name, rating) {
  if (name === "human") return "you";
  const defaults = ui.catalog.agent_defaults[name];
  const opts = defaults ? Object.entries(defaults).map(([k, v]) => `${k}=${v}`).join(", ") : "";
  const label = opts ? `${name} (${opts})` : name;
  return rating ? `${label} · ${rating}` : label;
}

function fillPlayers() {
  const game = gameEntry();
  const players = $("players");
  players.innerHTML = "";
  for (const n of game.player_counts) players.add(new Option(String(n), String(n)));
  const kwargs = $("kwargs");
  kwargs.innerHTML = "";
  for (const kw of game.kwargs) {
    const label = document.createElement("label");
    label.textContent = kw.name.replaceAll("_", " ");
    let input;
    if (kw.choices) {
      input = document.createElement("select");
      for (const c of kw.choices) input.add(new Option(c, c, c === kw.default, c === kw.default));
    } else if (typeof kw.default === "boolean") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = kw.default;
      label.classList.add("inline");
    } else {
      input = document.createElement("input");
      input.type = typeof kw.default === "number" ? "number" : "text";
      input.value = kw.default === null ? "" : String(kw.default);
    }
    input.id = `kw-${kw.name}`;
    input.dataset.kwarg = kw.name;
    input.dataset.kind = typeof kw.default;
    label.appendChild(input);
    kwargs.appendChild(label);
  }
  fillSeats();
}

function fillSeats() {
  const game = gameEntry();
  const n = Number($("players").value);
  const seats = $("seats");
  seats.innerHTML = "";
  for (let seat = 0; seat < n; seat++) {
    const label = document.createElement("label");
    label.textContent = `player_${seat}`;
    const select = document.createElement("select");
    select.id = `seat-${seat}`;
    const ratings = game.ratings[String(n)] || {};
    for (const name of game.agents) select.add(new Option(agentLabel(name, ratings[name]), name));
    select.value = seat === 0 ? "human" : game.agents.includes("heuristic") ? "heuristic" : "random";
    label.appendChild(select);
    seats.appendChild(label);
  }
}

function newGameBody() {
  const game = gameEntry();
  const kwargs = {};
  for (const input of document.querySelectorAll("[data-kwarg]")) {
    if (input.dataset.kind === "boolean") kwargs[input.dataset.kwarg] = input.checked;
    else if (input.value !== "")
      kwargs[input.dataset.kwarg] = input.dataset.kind === "number" ? Number(input.value) : input.value;
  }
  const n = Number($("players").value);
  const seats = [];
  for (let seat = 0; seat < n; seat++) seats.push($(`seat-${seat}`).value);
  const seedText = $("seed").value.trim();
  return {
    env_id: game.env_id,
    num_players: n,
    kwargs,
    seats,
    seed: seedText === "" ? null : Number(seedText),
  };
}

async function startGame(event) {
  event.preventDefault();
  showError("");
  try {
    const created = await api("POST", "/api/games", newGameBody());
    const seats = Object.keys(created.tokens).sort();
    openGame(created.id, seats.length ? created.tokens[seats[0]] : null, created.tokens);
  } catch (err) {
    showError(err.message);
  }
}

async function replayRecord(event) {
  event.preventDefault();
  showError("");
  const file = $("upload").files[0];
  if (!file) {
    showError("choose a record file (.json) to replay");
    return;
  }
  try {
    const created = await api("POST", "/api/replays", await file.arrayBuffer());
    openGame(created.id, null, {});
  } catch (err) {
    showError(err.message);
  }
}

// -- one game --------------------------------------------------------------------------------
function openGame(id, token, tokens) {
  stopTimer();
  ui.gameId = id;
  ui.token = token;
  ui.view = null;
  ui.step = null;
  const others = Object.entries(tokens).filter(([, t]) => t !== token);
  const links = $("links");
  links.innerHTML = "";
  links.hidden = others.length === 0;
  for (const [seat, t] of others) {
    const p = document.createElement("div");
    const url = `${location.origin}/#game=${id}&token=${t}`;
    p.append(`player_${seat}'s page (open it for that player only): `);
    const a = document.createElement("a");
    a.href = url;
    a.textContent = url;
    a.target = "_blank";
    p.appendChild(a);
    links.appendChild(p);
  }
  history.replaceState(null, "", token ? `#game=${id}&token=${token}` : `#game=${id}`);
  refresh();
}

function query() {
  const q = new URLSearchParams();
  if (ui.token) q.set("token", ui.token);
  if (ui.view !== null) q.set("view", ui.view);
  if (ui.step !== null) q.set("step", ui.step);
  return q.toString();
}

async function refresh() {
  try {
    show(await api("GET", `/api/games/${ui.gameId}?${query()}`));
  } catch (err) {
    showError(err.message);
  }
}

function seatName(data, seat) {
  const who = data.seats[seat] === "human" ? (data.viewer === seat ? "you" : "human") : data.seats[seat];
  return `player_${seat} (${who})`;
}

function show(data) {
  ui.data = data;
  // What the browser tests wait on: the position shown and how many moves the game has.
  $("board").dataset.step = String(data.step);
  $("board").dataset.moves = String(data.num_steps);
  $("board").dataset.over = String(data.game_over);
  $("empty").hidden = true;
  $("board").hidden = false;
  $("table").innerHTML = data.svg;
  $("text").textContent = data.text;
  const viewer = $("viewer");
  viewer.textContent = data.viewer_label;
  viewer.classList.toggle("all", data.viewer === "all");

  let status;
  if (data.game_over && data.step === data.num_steps) status = "Game over";
  else if (data.to_move < 0) status = `Position after move ${data.step}`;
  else if (data.to_move === data.viewer && ui.token) status = `Your turn (${data.phase.replaceAll("_", " ")})`;
  else status = `${seatName(data, data.to_move)} to move (${data.phase.replaceAll("_", " ")})`;
  $("status").textContent = `${data.env_id} - ${status}`;

  const result = $("result");
  result.hidden = !data.game_over;
  if (data.game_over) {
    const r = data.result;
    const winners = r.winners.map((w, i) => (w ? seatName(data, i) : null)).filter((x) => x);
    const verdict =
      r.end_reason === "game over"
        ? winners.length ? `${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}` : "a draw"
        : `ended by ${r.end_reason}: no winner`;
    const scores = r.scores.map((s, i) => `player_${i} ${s}`).join(", ");
    result.textContent = `${verdict}. Final scores: ${scores}.` + (data.seed !== null ? ` Seed ${data.seed}.` : "");
  }

  const moves = $("moves");
  moves.innerHTML = "";
  data.moves.forEach((m) => {
    const li = document.createElement("li");
    if (m.who) {
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = `${m.who}: `;
      li.append(who);
    }
    li.append(m.label);
    // What the move caused (dice rolled, Fate cards, a fight's totals ...), as this viewer may know it.
    if (m.events.length) {
      const told = document.createElement("div");
      told.className = "events";
      told.textContent = m.events.join(" ");
      li.append(told);
    }
    moves.appendChild(li);
  });
  if (moves.lastChild) moves.lastChild.classList.add("current");
  // Keep the latest move in sight inside the list, without scrolling the page.
  $("history").scrollTop = $("history").scrollHeight;

  const actions = $("actions");
  actions.innerHTML = "";
  for (const a of data.actions) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = a.label;
    b.dataset.action = String(a.action);
    b.addEventListener("click", () => playMove(a.action));
    actions.appendChild(b);
  }
  $("your-move").hidden = data.actions.length === 0;

  const live = !data.game_over && data.step === data.num_steps;
  $("live-controls").hidden = data.game_over;
  $("agent-move").disabled = !live || data.to_move_kind !== "agent";
  $("step-controls").hidden = !data.game_over;
  $("step-label").textContent = `move ${data.step} of ${data.num_steps}`;
  $("step-first").disabled = $("step-back").disabled = data.step === 0;
  $("step-last").disabled = $("step-forward").disabled = data.step === data.num_steps;
  const download = $("download");
  download.hidden = !data.game_over;
  download.href = `/api/games/${data.id}/record`;
  download.download = `${data.env_id}-${data.id}.json`;

  const choice = $("view-choice");
  const canChoose = data.human_seats.length === 0 || data.source === "replay";
  choice.hidden = !canChoose;
  if (canChoose) {
    const select = $("view");
    if (select.options.length !== data.seats.length + 2) {
      select.innerHTML = "";
      select.add(new Option("everything", "all"));
      select.add(new Option("public only", "public"));
      data.seats.forEach((_, i) => select.add(new Option(`as player_${i}`, String(i))));
    }
    select.value = data.viewer === "all" ? "all" : data.viewer === null ? "public" : String(data.viewer);
  }
  schedule();
}

async function playMove(action) {
  if (ui.busy) return;
  ui.busy = true;
  showError("");
  try {
    show(await api("POST", `/api/games/${ui.gameId}/move`, { token: ui.token, action }));
  } catch (err) {
    showError(err.message);
  } finally {
    ui.busy = false;
  }
}

async function agentMove() {
  if (ui.busy) return;
  ui.busy = true;
  stopTimer();
  try {
    show(await api("POST", `/api/games/${ui.gameId}/advance`, { token: ui.token, view: ui.view }));
  } catch (err) {
    showError(err.message);
    $("autoplay").checked = false;
  } finally {
    ui.busy = false;
  }
}

function stopTimer() {
  if (ui.timer !== null) clearTimeout(ui.timer);
  ui.timer = null;
}

// Auto-play: the next agent move after a pause, while agents are to move.
function schedule() {
  stopTimer();
  const d = ui.data;
  if (!d || !$("autoplay").checked || d.game_over || d.step !== d.num_steps || d.to_move_kind !== "agent") return;
  ui.timer = setTimeout(agentMove, Number($("speed").value));
}

function goTo(step) {
  const d = ui.data;
  ui.step = Math.max(0, Math.min(step, d.num_steps));
  refresh();
}

// -- wiring ------------------------------------------------------------------------------------
async function init() {
  try {
    ui.catalog = await api("GET", "/api/catalog");
  } catch (err) {
    showError(`cannot load the list of games: ${err.message}`);
    return;
  }
  const games = $("game");
  for (const g of ui.catalog.games) games.add(new Option(g.env_id, g.env_id));
  games.addEventListener("change", fillPlayers);
  $("players").addEventListener("change", fillSeats);
  fillPlayers();
  $("new-game").addEventListener("submit", startGame);
  $("replay-form").addEventListener("submit", replayRecord);
  $("agent-move").addEventListener("click", agentMove);
  $("autoplay").addEventListener("change", schedule);
  $("step-first").addEventListener("click", () => goTo(0));
  $("step-back").addEventListener("click", () => goTo(ui.data.step - 1));
  $("step-forward").addEventListener("click", () => goTo(ui.data.step + 1));
  $("step-last").addEventListener("click", () => goTo(ui.data.num_steps));
  $("view").addEventListener("change", (e) => {
    ui.view = e.target.value;
    refresh();
  });
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("game")) openGame(hash.get("game"), hash.get("token"), {});
}

init();
