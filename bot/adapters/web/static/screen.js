// The big screen's event reader (bot/adapters/web/screen.py): follows the chat's runs over
// Server-Sent Events and redraws the page. Text goes in as text (textContent), never as markup.
// The browser reconnects by itself and sends the last id it saw; the server goes on from there.
"use strict";

(function () {
  const root = document.getElementById("screen");
  if (!root) return;
  const words = JSON.parse(root.dataset.words);
  const $ = (id) => document.getElementById(id);
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
  let skew = 0; // the server's clock minus ours, from each event's sending time
  let deadline = 0;
  let timed = true; // false: a hosted question without a time limit, open until its host closes it
  let paused = null; // seconds left when paused
  let question = 0; // the number of the question shown
  let written = ""; // the language the question is written in (the page's may differ)
  let ticking = null;

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function show(id, on) {
    $(id).hidden = !on;
  }

  function tick() {
    const clock = $("clock");
    if (paused !== null) {
      clock.textContent = timed ? words.paused + " · " + fill(words.seconds, { seconds: Math.ceil(paused) }) : words.paused;
      return;
    }
    if (!timed && deadline) {
      clock.textContent = ""; // no countdown: the host closes it
      return;
    }
    const left = Math.max(0, Math.ceil(deadline - (Date.now() / 1000 + skew)));
    clock.textContent = left > 0 ? fill(words.seconds, { seconds: left }) : words.closed;
  }

  // quiz text in its own language and direction, inside a page in the chat's
  function quizText(node, text) {
    node.textContent = text;
    if (written) node.lang = written;
  }

  // the right options say so in a mark and a word, not by their colour alone
  function markRight(item, right) {
    item.classList.toggle("right", right);
    const mark = item.querySelector(".mark");
    if (mark) mark.remove();
    if (!right) return;
    const added = document.createElement("span");
    added.className = "mark";
    const tick = document.createElement("span");
    tick.setAttribute("aria-hidden", "true");
    tick.textContent = "✓ ";
    const word = document.createElement("span");
    word.className = "sr";
    word.textContent = words.right_mark;
    added.append(tick, word);
    item.querySelector(".letter").after(added);
  }

  function answered(data) {
    // M is who has played this run so far: nobody yet on its first question, so no "0 of 0"
    const m = Math.max(data.players, data.answered);
    $("answered").textContent = m ? fill(words.answered, { n: data.answered, m: m }) : "";
  }

  function fillRows(list, standings) {
    clear(list);
    for (const row of standings) {
      const item = document.createElement("li");
      const name = document.createElement("bdi");
      name.textContent = row.name;
      const points = document.createElement("span");
      points.className = "points";
      points.dir = "ltr";
      points.textContent = String(row.points);
      item.append(String(row.rank) + ". ", name, " ", points);
      list.append(item);
    }
  }

  // the players' standings, and the teams' above them in a run with teams
  function rows(title, standings, teams) {
    $("board-title").textContent = title;
    fillRows($("rows"), standings);
    fillRows($("team-rows"), teams || []);
    show("teams", Boolean(teams && teams.length));
    show("board", standings.length > 0 || Boolean(teams && teams.length));
  }

  function onQuestion(data) {
    question = data.number;
    written = data.lang || "";
    timed = data.seconds > 0;
    deadline = timed ? data.deadline : Infinity;
    paused = null;
    $("heading").textContent = fill(words.question, { number: data.number, total: data.total });
    const prompt = $("prompt");
    quizText(prompt, data.prompt);
    prompt.dir = data.rtl ? "rtl" : "auto";
    const list = $("options");
    clear(list);
    for (const option of data.options) {
      const item = document.createElement("li");
      item.dataset.letter = option.letter;
      const letter = document.createElement("span");
      letter.className = "letter";
      letter.textContent = option.letter;
      const text = document.createElement("bdi");
      quizText(text, option.text);
      const count = document.createElement("span");
      count.className = "count";
      count.dir = "ltr";
      item.append(letter, " ", text, count);
      list.append(item);
    }
    const picture = data.picture;
    show("picture", Boolean(picture));
    if (picture) {
      const img = $("picture-img");
      img.hidden = !picture.quiz;
      if (picture.quiz) img.src = root.dataset.pictures + encodeURIComponent(picture.quiz) + "/" + picture.number;
      img.alt = picture.alt || "";
      if (written) img.lang = written;
      quizText($("picture-alt"), picture.alt || "");
    }
    show("reveal", false);
    show("board", false);
    show("hint", false);
    answered(data);
    if (ticking === null) ticking = setInterval(tick, 250);
    tick();
  }

  function onClosed(data) {
    if (data.number !== question) return;
    deadline = 0;
    paused = null;
    tick();
    const letters = data.right_letter.split(/[^A-Z]+/).filter(Boolean);
    const items = $("options").children;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      markRight(item, letters.includes(item.dataset.letter));
      const count = item.querySelector(".count");
      if (count && i < data.counts.length) count.textContent = " " + data.counts[i];
    }
    quizText($("right"), [data.right_letter, data.right_text].filter(Boolean).join(" · "));
    quizText($("explanation"), data.explanation || "");
    show("reveal", Boolean(data.right_letter || data.right_text));
    answered(data);
    rows(words.top, data.top, data.teams);
  }

  function onPodium(data) {
    deadline = 0;
    paused = null;
    $("heading").textContent = words.podium;
    quizText($("prompt"), data.title); // the run's quiz: the language its questions were in
    clear($("options"));
    show("picture", false);
    show("reveal", false);
    show("hint", false);
    $("answered").textContent = "";
    $("clock").textContent = "";
    rows(words.podium, data.standings, data.teams);
  }

  const handlers = {
    question: onQuestion,
    answered: (data) => {
      if (data.number === question && deadline) answered(data);
    },
    closed: onClosed,
    podium: onPodium,
    round: (data) => rows(data.title, data.standings, data.teams),
    paused: (data) => {
      if (data.number !== question) return;
      paused = data.left;
      tick();
    },
    resumed: (data) => {
      if (data.number !== question) return;
      paused = null;
      deadline = timed ? data.deadline : Infinity;
      tick();
    },
    hint: (data) => {
      if (data.number !== question) return;
      const hint = document.createElement("bdi");
      quizText(hint, data.hint);
      $("hint").replaceChildren(words.hint + ": ", hint);
      show("hint", true);
    },
  };

  const status = $("status");
  const source = new EventSource(root.dataset.events);
  source.onopen = () => {
    status.textContent = words.live;
    status.dataset.state = "live";
  };
  source.onerror = () => {
    status.textContent = words.offline;
    status.dataset.state = "offline";
  };
  for (const [kind, handle] of Object.entries(handlers)) {
    source.addEventListener(kind, (message) => {
      const data = JSON.parse(message.data);
      skew = data.now - Date.now() / 1000;
      root.dataset.lastEvent = message.lastEventId;
      handle(data);
    });
  }
})();
