// The Match view: the page hosts a GGP match as ggp-base's GameServer does.
// Each role is played by the page's engine (a GGP player session in its own
// worker), a human, or a remote player server (a URL, e.g. a local
// `gdlkit serve`). The match itself (messages, clocks, substitutions,
// errors, the ggp.org record) is the protocol's Rust code in the `game`
// worker; this file only sends messages (fetch or the engine's worker),
// asks humans for moves and draws.
//
// Faults: the match lives in the `game` worker. When that worker
// dies (a trap, out of memory), the match is built again in the new one
// from the same rules and setup (seed, start time), and the answers
// delivered so far are delivered again with their times: the protocol's
// code is deterministic, so the match, its record and its clocks are as
// before, and it goes on. When an engine seat's own worker (`ggp-N`)
// dies, its player is rebuilt in a fresh worker: the match's START again,
// then the joint moves so far applied without thinking (`GgpPlayer.catchUp`),
// and the pending message is sent again within its clock.

import { DEFAULT_PLAYER, engine, engineEvents, EngineWorker, onThreads, specOnThreads } from '../engine/client.js';
import { h, labelled, select } from '../dom.js';
import { renderBoard, renderFluentList } from '../play/board.js';

const KINDS = [['engine', 'Engine (this page)'], ['human', 'Human'], ['remote', 'Player URL']];

/** Sends one message to a remote player; resolves to a GgpMatch answer. */
async function fetchAnswer(url, body, timeoutMs) {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'text/acl' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const reply = await res.text();
    // A relay (`gdlkit serve --relay`) says so when its player failed.
    return res.ok ? { body: reply } : { error: 'connection', detail: `HTTP ${res.status}: ${reply.slice(0, 200)}` };
  } catch (e) {
    return e?.name === 'TimeoutError' ? { error: 'timeout' } : { error: 'connection', detail: String(e?.message ?? e) };
  }
}

/** A promise that resolves to a timeout answer after `ms`, with a cancel. */
function timeout(ms) {
  let timer;
  const promise = new Promise((resolve) => { timer = setTimeout(() => resolve({ error: 'timeout' }), ms); });
  promise.cancel = () => clearTimeout(timer);
  return promise;
}

export class MatchView {
  constructor(root, { getText }) {
    this.root = root;
    this.getText = getText;
    this.roles = [];
    this.seats = []; // per role: {kind, url, spec}
    this.workers = [];
    this.running = false;
    this.match = null; // {id, roles, record, ...} from the worker
    this.humanWait = null;
    this.played = null; // {text, setup, deliveries: [{answers, now}]}: what rebuilds the match
    this.lost = null; // why the game worker died during the match
    this.seatStart = []; // per role: the START message its engine player got
    this.seatLost = []; // per role: why its engine worker died (its player is gone)
    this.build();
    engineEvents.addEventListener('restarted', (event) => {
      const seat = this.workers.findIndex((w) => w?.name === event.detail.worker);
      if (seat >= 0 && this.running) this.seatLost[seat] = event.detail.message;
      if (event.detail.worker === 'game' && this.running) this.lost = event.detail.message;
    });
  }

  build() {
    this.seatBox = h('div', { class: 'match-seats' });
    this.startClock = h('input', { type: 'number', min: '1', value: '5', class: 'match-clock', 'aria-label': 'Start clock (s)' });
    this.playClock = h('input', { type: 'number', min: '1', value: '2', class: 'match-clock', 'aria-label': 'Play clock (s)' });
    this.startBtn = h('button', { type: 'button', class: 'primary', text: 'Start match', on: { click: () => this.start() } });
    this.abortBtn = h('button', { type: 'button', text: 'Abort', disabled: true, on: { click: () => { this.aborting = true; this.humanWait?.resolve({ error: 'connection', detail: 'aborted' }); } } });
    this.downloadBtn = h('button', { type: 'button', text: 'Download match JSON', disabled: true, on: { click: () => this.download() } });
    this.status = h('p', { class: 'match-status', role: 'status' });
    this.recovered = h('p', { class: 'match-recovered', hidden: true });
    this.humanBox = h('div', { class: 'match-human' });
    this.boardBox = h('div', { class: 'board-box' });
    this.stepsBox = h('div', { class: 'match-steps' });
    this.eventsBox = h('ul', { class: 'match-events' });
    this.root.replaceChildren(
      h('div', { class: 'match-setup' }, this.seatBox,
        h('div', { class: 'match-clocks' }, labelled('Start clock (s)', this.startClock), labelled('Play clock (s)', this.playClock),
          this.startBtn, this.abortBtn, this.downloadBtn)),
      this.status, this.recovered, this.humanBox,
      h('div', { class: 'match-main' }, this.boardBox, this.stepsBox),
      this.eventsBox);
  }

  /** Shows the seats for the current rules (roles from the engine). */
  async refresh() {
    if (this.running) return;
    const text = this.getText();
    let roles = [];
    try {
      const loaded = await engine().game.call('load', { text });
      roles = loaded.roles;
      engine().game.call('unload', { id: loaded.id }).catch(() => {});
    } catch (e) {
      this.status.textContent = `The rules have errors: ${e.message.split('\n')[0]}`;
      this.startBtn.disabled = true;
      return;
    }
    this.startBtn.disabled = false;
    this.status.textContent = 'Choose who plays each role, then start the match.';
    this.roles = roles;
    // The engines a seat can take: the one registry of players (Rust).
    this.engines ??= (await engine().game.call('players', {})).registry.map((p) => [p.name, p.label]);
    this.seats = roles.map((_, r) => this.seats[r] ?? { kind: r === 0 ? 'human' : 'engine', url: 'http://127.0.0.1:9147/', spec: DEFAULT_PLAYER });
    this.seatBox.replaceChildren(...roles.map((role, r) => this.seatRow(role, r)));
  }

  seatRow(role, r) {
    const seat = this.seats[r];
    const kind = select(KINDS, seat.kind, { 'aria-label': `Player of ${role}`, class: 'match-kind', data: { role } });
    const url = h('input', { type: 'url', value: seat.url, class: 'match-url', 'aria-label': `URL of the player of ${role}`, hidden: seat.kind !== 'remote' });
    const spec = select(this.engines, seat.spec, { 'aria-label': `Engine of ${role}`, hidden: seat.kind !== 'engine' });
    kind.addEventListener('change', () => {
      seat.kind = kind.value;
      url.hidden = seat.kind !== 'remote';
      spec.hidden = seat.kind !== 'engine';
    });
    url.addEventListener('input', () => { seat.url = url.value.trim(); });
    spec.addEventListener('change', () => { seat.spec = spec.value; });
    return h('div', { class: 'match-seat' }, h('strong', { text: role }), kind, url, spec);
  }

  playerName(r) {
    const s = this.seats[r];
    return s.kind === 'remote' ? s.url : s.kind === 'engine' ? `page:${s.spec}` : 'human';
  }

  async start() {
    if (this.running) return;
    const text = this.getText();
    this.running = true;
    this.aborting = false;
    this.startBtn.disabled = true;
    this.abortBtn.disabled = false;
    this.downloadBtn.disabled = true;
    this.recovered.hidden = true;
    this.lost = null;
    this.seatStart = [];
    this.seatLost = [];
    // Engine seats think on every core where the page can share memory (engine/start.js).
    this.workers = this.seats.map((s, r) => (s.kind === 'engine' ? (this.workers[r] ?? new EngineWorker(`ggp-${r}`, onThreads)) : null));
    const setup = {
      matchId: `page.${Date.now()}`,
      startClock: Math.max(1, Number(this.startClock.value) || 5),
      playClock: Math.max(1, Number(this.playClock.value) || 2),
      players: this.seats.map((_, r) => this.playerName(r)),
      startTime: Date.now(),
    };
    this.played = { text, setup, deliveries: [] };
    try {
      let snap = await engine().game.call('ggpNew', { text, setup });
      this.match = snap;
      this.draw(snap);
      while (!snap.isDone) {
        if (this.aborting) {
          snap = await this.onMatch('ggpAbort');
          await Promise.all(snap.requests.map((q) => this.send(q, snap)));
          break;
        }
        this.status.textContent = snap.phase === 'start' ? 'Starting the players…' : snap.phase === 'stop' ? 'Stopping the players…' : `Step ${snap.record.moves.length + 1}: waiting for the players…`;
        const answers = await Promise.all(snap.requests.map((q) => this.send(q, snap)));
        const now = Date.now();
        snap = await this.onMatch('ggpDeliver', { answers, now });
        this.played.deliveries.push({ answers, now });
        this.draw(snap);
      }
      this.match.record = snap.record;
      const goals = snap.record.goalValues.map((g, r) => `${snap.record.gameRoleNames[r]} ${g}`).join(', ');
      this.status.textContent = snap.record.isAborted ? 'Match aborted.' : `Match over: ${goals}.`;
    } catch (e) {
      this.status.textContent = `The match stopped: ${e.message}`;
    } finally {
      this.running = false;
      this.startBtn.disabled = false;
      this.abortBtn.disabled = true;
      this.downloadBtn.disabled = !this.match?.record;
      this.humanBox.replaceChildren();
    }
  }

  /**
   * A call on the match in the `game` worker; when the worker died, the
   * match is rebuilt first (see the top of the file).
   */
  async onMatch(op, args = {}) {
    if (this.lost) await this.rebuild(this.lost);
    try {
      return await engine().game.call(op, { ...args, id: this.match.id });
    } catch (e) {
      if (e?.name !== 'EngineRestarted' && e?.name !== 'GdlStaleGame') throw e;
      await this.rebuild(e.cause?.message ?? e.message);
      return engine().game.call(op, { ...args, id: this.match.id });
    }
  }

  /** Builds the match again in the (new) game worker and delivers every answer again. */
  async rebuild(reason) {
    this.lost = null;
    const { text, setup, deliveries } = this.played;
    let snap = await engine().game.call('ggpNew', { text, setup });
    const id = snap.id;
    for (const d of deliveries) snap = await engine().game.call('ggpDeliver', { id, ...d });
    this.match.id = id;
    const n = snap.record.moves.length;
    this.recovered.textContent = `The engine stopped unexpectedly (${reason}) and was restarted; the match was reloaded and its ${n} step${n === 1 ? '' : 's'} replayed.`;
    this.recovered.hidden = false;
  }

  /** One message to the player of a role; resolves to its answer. */
  async send(q, snap) {
    const seat = this.seats[q.role];
    if (seat.kind === 'remote') return fetchAnswer(seat.url, q.body, q.timeoutMs);
    if (seat.kind === 'engine') {
      const clock = timeout(q.timeoutMs);
      if (q.kind === 'start') this.seatStart[q.role] = q.body;
      // A late reply is dropped, but the worker is left to finish: its
      // session must see every message of the match to stay in step.
      const answer = await Promise.race([this.askEngine(q, snap), clock]);
      clock.cancel();
      return answer;
    }
    // A human: START/STOP/ABORT are answered for them; PLAY asks.
    if (q.kind !== 'play') return { body: q.kind === 'start' ? 'ready' : 'done' };
    const legal = snap.legal[q.role] ?? [];
    if (legal.length === 1) return { body: legal[0] };
    return this.askHuman(q.role, legal, q.timeoutMs);
  }

  /**
   * The engine players' key in their workers: the match's own id, which
   * survives a rebuild of the match in a new game worker (the worker's
   * handle does not).
   */
  playerKey() {
    return this.played.setup.matchId;
  }

  /** An engine seat's spec, on all of its worker's threads (one where the page cannot share memory). */
  async seatSpec(r) {
    return specOnThreads(this.seats[r].spec, await this.workers[r].threads());
  }

  /** One message to an engine seat's player; a player whose worker died is rebuilt first, or after its death during this message. */
  async askEngine(q, snap) {
    const spec = await this.seatSpec(q.role);
    const ask = () => this.workers[q.role].call('ggpPlayer', { key: this.playerKey(), spec, marginMs: 500, message: q.body });
    try {
      if (this.seatLost[q.role]) await this.rebuildSeat(q, snap);
      return { body: (await ask()).body };
    } catch (e) {
      if (e?.name !== 'EngineRestarted') return { error: 'connection', detail: String(e?.message ?? e) };
      try {
        this.seatLost[q.role] = e.cause?.message ?? e.message;
        await this.rebuildSeat(q, snap);
        return { body: (await ask()).body };
      } catch (again) {
        return { error: 'connection', detail: String(again?.message ?? again) };
      }
    }
  }

  /**
   * The seat's player in its fresh worker: START again, then the joint
   * moves before those the pending message `q` carries (PLAY and STOP
   * bring the last joint move themselves). Nothing to rebuild before START,
   * and an ABORT needs no player.
   */
  async rebuildSeat(q, snap) {
    const r = q.role;
    const reason = this.seatLost[r];
    this.seatLost[r] = null;
    const start = this.seatStart[r];
    if (!start || q.kind === 'start' || q.kind === 'abort') return;
    const moves = snap.record.moves.slice(0, Math.max(0, snap.record.moves.length - 1));
    const reply = await this.workers[r].call('ggpPlayerResume', { key: this.playerKey(), spec: await this.seatSpec(r), marginMs: 500, start, moves });
    if (!reply.busy) throw new Error(`the player of ${this.roles[r]} could not be rebuilt: ${reply.body}`);
    const n = snap.record.moves.length;
    this.recovered.textContent = `The engine of ${this.roles[r]} stopped unexpectedly (${reason}) and was restarted; its player was rebuilt from the rules and the ${n} step${n === 1 ? '' : 's'} so far.`;
    this.recovered.hidden = false;
  }

  askHuman(r, legal, ms) {
    return new Promise((resolve) => {
      const clock = timeout(ms);
      const done = (answer) => {
        clock.cancel();
        this.humanWait = null;
        box.remove();
        resolve(answer);
      };
      clock.then(done);
      this.humanWait = { resolve: done };
      const box = h('div', { class: 'match-human-role' },
        h('span', { text: `${this.roles[r]} to move (${Math.round(ms / 1000)} s): ` }),
        ...legal.map((m) => h('button', { type: 'button', class: 'move-btn', text: m, on: { click: () => done({ body: m }) } })));
      this.humanBox.append(box);
    });
  }

  draw(snap) {
    // The board's cells come split in Rust with each snapshot (the worker's ggpSnapshot).
    const board = snap.board;
    this.boardBox.replaceChildren(board ? renderBoard(board) : renderFluentList(snap.fluents));
    if (board?.rest.length) this.boardBox.append(renderFluentList(board.rest));
    const rec = snap.record;
    const rows = rec.moves.map((jm, i) => h('tr', {},
      h('td', { text: String(i + 1) }),
      ...jm.map((m, r) => {
        // errors[0] is START's (ggp-base's layout): step i's are at i + 1.
        const err = rec.errors[i + 1]?.[r];
        return h('td', { class: err ? 'match-error' : '', title: err ? `error ${err}: a random legal move was played` : null, text: err ? `${m} (${err})` : m });
      })));
    this.stepsBox.replaceChildren(h('table', { class: 'match-moves' },
      h('thead', {}, h('tr', {}, h('th', { text: '#' }), ...rec.gameRoleNames.map((r, i) => h('th', { text: `${r} (${rec.playerNamesFromHost[i]})` })))),
      h('tbody', {}, ...rows)));
    this.eventsBox.replaceChildren(...snap.events.map((e) => h('li', { text: e })));
  }

  download() {
    const rec = this.match?.record;
    if (!rec) return;
    const blob = new Blob([`${JSON.stringify(rec, null, 2)}\n`], { type: 'application/json' });
    const a = h('a', { href: URL.createObjectURL(blob), download: `${rec.matchId}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }
}
