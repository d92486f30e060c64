// The page of `cotuong gui`: draws the board, the moves, the analysis and the review that the
// engine sends over its WebSocket (protocol: docs/gui.md), and sends the user's requests back.
// Plain ES2020, no framework, no build step: the server embeds this file as it is.
'use strict';

// ---------------------------------------------------------------------------------------------
// Constants

const FILES = 'abcdefghi';
const START_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
const CHINESE = {
  K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
  k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒',
};
const NOTATION_LABELS = { iccs: 'ICCS', wxf: 'WXF', chinese: 'Chinese', vietnamese: 'Vietnamese' };
const JUDGEMENT_GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const SVG_NS = 'http://www.w3.org/2000/svg';

// Board geometry in SVG units: the distance between two points and the margin around the grid
// (room for the file letters and rank digits).
const STEP = 50;
const MARGIN = 46;
const BOARD_WIDTH = 2 * MARGIN + 8 * STEP;
const BOARD_HEIGHT = 2 * MARGIN + 9 * STEP;
const PIECE_RADIUS = 22;

// The evaluation graph: scores in centipawns are cut at this, mates drawn at the edge.
const GRAPH_LIMIT_CP = 1000;
const GRAPH_WIDTH = 440;
const GRAPH_HEIGHT = 170;
const GRAPH_LEFT = 30; // room for the axis labels
const GRAPH_RIGHT = GRAPH_WIDTH - 8;

// ---------------------------------------------------------------------------------------------
// What the page knows

const app = {
  socket: null,
  connected: false,
  hello: null,
  state: null,
  analysis: null, // the last `analysis` message for the cursor's position
  review: null, // the last `review` message's game
  reviewing: false,
  analysePending: false, // an `analyse` request sent, not answered yet
  reviewProgressSeen: false, // whether the review under way has reported progress yet
  flipped: localStorage.getItem('cotuong.flipped') === '1',
  letters: localStorage.getItem('cotuong.letters') === '1',
  selected: null, // the square of the piece picked up by a click
  pendingMove: null, // a move sent and shown before the engine's state confirms it
  drag: null, // the pointer gesture in progress on the board
  editor: null, // the board editor: { board: {square: letter}, tool, awaitingReply }
  clocksAt: 0, // performance.now() when the last clocks arrived
  lastFile: null, // the last file opened: {name, data}, to open another game of it
};

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------------------------
// Small helpers

function svgElement(tag, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (parent) parent.appendChild(element);
  return element;
}

function htmlElement(tag, attributes = {}, text = null) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text !== null) element.textContent = text;
  return element;
}

function squareName(file, rank) {
  return FILES[file] + rank;
}

function parseSquare(name) {
  return { file: FILES.indexOf(name[0]), rank: Number(name[1]) };
}

const isRedPiece = (letter) => letter === letter.toUpperCase();
const pieceSide = (letter) => (isRedPiece(letter) ? 'red' : 'black');

// The pieces of a FEN as {square: letter}; ranks come from Black's side (rank 9) first.
function piecesOfFen(fen) {
  const pieces = {};
  const rows = fen.trim().split(/\s+/)[0].split('/');
  rows.forEach((row, index) => {
    const rank = 9 - index;
    let file = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '9') file += Number(ch);
      else pieces[squareName(file++, rank)] = ch;
    }
  });
  return pieces;
}

function fenOfPieces(pieces, side) {
  const rows = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 9; file++) {
      const piece = pieces[squareName(file, rank)];
      if (!piece) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += piece;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return `${rows.join('/')} ${side === 'black' ? 'b' : 'w'} - - 0 1`;
}

function sideToMoveOfFen(fen) {
  return fen.trim().split(/\s+/)[1] === 'b' ? 'black' : 'red';
}

// The move number of the FEN's first move (its sixth field, 1 when missing).
function moveNumberOfFen(fen) {
  const number = Number(fen.trim().split(/\s+/)[5]);
  return Number.isInteger(number) && number > 0 ? number : 1;
}

function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

// btoa() takes a string of bytes; build it in slices so that large files do not overflow the
// argument list of String.fromCharCode.
function bytesToBase64(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

// Whether keys pressed in `element` are the user's typing (then the arrows are not for moves).
function isTypingTarget(element) {
  if (!element) return false;
  if (element.tagName === 'INPUT') return !['checkbox', 'radio', 'button', 'file'].includes(element.type);
  return element.isContentEditable || ['SELECT', 'TEXTAREA'].includes(element.tagName);
}

// `1.` for Red's move of the first move number, `1…` for Black's, counted from the start FEN.
function moveLabel(startFen, ply, side) {
  const offset = sideToMoveOfFen(startFen) === 'black' ? 1 : 0;
  const number = moveNumberOfFen(startFen) + Math.floor((ply - 1 + offset) / 2);
  return `${number}${side === 'black' ? '…' : '.'}`;
}

function currentFen() {
  const state = app.state;
  return state ? state.fens[state.cursor] : START_FEN;
}

// ---------------------------------------------------------------------------------------------
// Messages to the user

function showMessage(text, kind = 'error') {
  const box = $('message');
  $('message-text').textContent = text;
  box.className = kind;
  box.hidden = false;
}

// The disconnection message stays: nothing the user does can fix it from the page.
function clearMessage() {
  if (!app.connected && app.socket) return;
  $('message').hidden = true;
  $('message').className = '';
}

// ---------------------------------------------------------------------------------------------
// The connection

function connect() {
  const token = new URLSearchParams(location.search).get('token') || '';
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${scheme}://${location.host}/ws?token=${encodeURIComponent(token)}`);
  app.socket = socket;
  setStatus('connecting…', 'connecting');
  socket.addEventListener('open', () => {
    app.connected = true;
    setStatus('connected', 'connected');
  });
  socket.addEventListener('message', (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (error) {
      showMessage(`The engine sent something that is not JSON: ${String(event.data).slice(0, 80)}`);
      return;
    }
    handleMessage(message);
  });
  socket.addEventListener('close', () => {
    app.connected = false;
    setStatus('disconnected', 'disconnected');
    showMessage('Disconnected from the engine — is cotuong gui still running?', 'error');
    renderAll();
  });
}

function setStatus(text, className) {
  const status = $('status');
  status.textContent = text;
  status.className = className;
}

// Sends one request; the user acted, so the last message goes.
function send(message) {
  if (!app.connected) {
    showMessage('Disconnected from the engine — is cotuong gui still running?', 'error');
    return false;
  }
  clearMessage();
  app.socket.send(JSON.stringify(message));
  return true;
}

function handleMessage(message) {
  switch (message.type) {
    case 'hello': return onHello(message);
    case 'state': return onState(message);
    case 'analysis': return onAnalysis(message);
    case 'review_progress': return onReviewProgress(message);
    case 'review': return onReview(message);
    case 'pgn': return downloadText(message.text, message.filename || 'game.pgn');
    case 'notice': return onNotice(message);
    case 'error': return onError(message);
    default: console.warn('unknown message from the engine', message);
  }
}

// ---------------------------------------------------------------------------------------------
// Messages from the engine

function onHello(message) {
  app.hello = message;
  $('engine-name').textContent = message.engine || '';
  fillNotations(message.notations);
  renderRuleOptions(message.rule_options || []);
}

function onState(state) {
  const previous = app.state;
  app.state = state;
  app.pendingMove = null;
  // The engine answers requests in order: this state already says whether analysis is on.
  app.analysePending = false;
  app.clocksAt = performance.now();
  if (!previous || previous.cursor !== state.cursor || previous.fens[state.cursor] !== state.fens[state.cursor]) {
    // The analysis on screen belonged to another position.
    app.selected = null;
    if (app.analysis && app.analysis.ply !== state.cursor) app.analysis = null;
  }
  if (app.review && !reviewBelongsTo(app.review, state)) app.review = null;
  if (app.editor && app.editor.awaitingReply) closeEditor();
  renderAll();
}

function onAnalysis(message) {
  app.analysePending = false;
  if (!app.state || message.ply !== app.state.cursor) return; // a late answer for another ply
  app.analysis = message;
  renderAnalysis();
  renderArrow();
}

function onReviewProgress(message) {
  app.reviewing = true;
  app.reviewProgressSeen = true;
  const bar = $('review-progress');
  bar.hidden = false;
  bar.max = Math.max(1, message.total);
  bar.value = message.done;
  bar.textContent = `${message.done} / ${message.total}`;
  bar.title = `${message.done} of ${message.total} positions searched`;
  renderReviewButtons();
}

function onReview(message) {
  app.review = message.game;
  app.reviewing = false;
  const bar = $('review-progress');
  bar.value = bar.max;
  renderReviewButtons();
  renderReview();
  renderMoves();
}

function onNotice(message) {
  // A stopped review ends with a notice.
  if (app.reviewing && /review/i.test(message.message)) {
    app.reviewing = false;
    renderReviewButtons();
  }
  showMessage(message.message, 'notice');
}

function onError(message) {
  if (app.reviewing && !app.reviewProgressSeen) {
    app.reviewing = false;
    renderReviewButtons();
  }
  if (app.editor) app.editor.awaitingReply = false; // the editor stays open to fix the position
  if (app.analysePending) {
    // Analysis was refused (the engine plays a game): the switch goes back off.
    app.analysePending = false;
    $('analyse-toggle').checked = false;
    renderAnalysis();
    renderArrow();
  }
  if (app.pendingMove) {
    // The move was refused: the piece goes back.
    app.pendingMove = null;
    renderBoard();
  }
  showMessage(message.message, 'error');
}

// A review is shown as long as its game is the one on the board: the same start, and the moves
// played since agree with it as far as both go.
function reviewBelongsTo(game, state) {
  if (game.start && boardOfFen(game.start) !== boardOfFen(state.start_fen)) return false;
  const moves = game.moves || [];
  return moves.length > 0 && state.moves.length > 0 && moves[0].iccs === state.moves[0].iccs;
}

const boardOfFen = (fen) => fen.trim().split(/\s+/).slice(0, 2).join(' ');

function downloadText(text, filename) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
  const link = htmlElement('a', { href: url, download: filename });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// ---------------------------------------------------------------------------------------------
// Rendering everything that follows the state

function renderAll() {
  renderBoard();
  renderPlayers();
  renderMoves();
  renderGameStatus();
  renderControls();
  renderFenField();
  renderAnalysis();
  renderReview();
}

function renderGameStatus() {
  const state = app.state;
  $('thinking').hidden = !(state && state.thinking);
  const resultBox = $('result');
  if (state && state.result) {
    resultBox.replaceChildren(
      htmlElement('strong', {}, `${state.result.result} · ${resultText(state.result.result)}`),
      htmlElement('span', {}, state.result.reason || ''),
    );
    resultBox.hidden = false;
  } else {
    resultBox.replaceChildren();
    resultBox.hidden = true;
  }
  $('rules-info').textContent = state && state.rules ? `Rules: ${state.rules}` : '';
  const info = [];
  if (state) {
    if (state.human === 'both') info.push('Analysis board: you move both sides.');
    else info.push(`You play ${state.human}; the engine plays ${state.human === 'red' ? 'black' : 'red'}.`);
    if (state.level) info.push(`Engine: ${state.level}.`);
  }
  $('game-info').textContent = info.join(' ');
}

function resultText(result) {
  if (result === '1-0') return 'Red wins';
  if (result === '0-1') return 'Black wins';
  return 'Draw';
}

function renderControls() {
  const state = app.state;
  const live = app.connected && state;
  const playing = live && state.human !== 'both' && !state.result;
  $('undo').disabled = !(live && state.moves.length > 0);
  $('offer-draw').disabled = !playing || state.thinking; // the engine hears offers on the player's move
  $('resign').disabled = !playing;
  $('save-pgn').disabled = !live;
  $('new-game').disabled = !app.connected;
  $('nav-first').disabled = !(live && state.cursor > 0);
  $('nav-prev').disabled = !(live && state.cursor > 0);
  $('nav-next').disabled = !(live && state.cursor < state.moves.length);
  $('nav-last').disabled = !(live && state.cursor < state.moves.length);
  if (state && state.notation) $('notation').value = state.notation;
  renderAnalysisSwitch();
  renderReviewButtons();
}

// Live analysis is the engine's work on an analysis board or after a game; during a game against
// it the engine refuses, so the switch is off and the page offers a board of the position.
function renderAnalysisSwitch() {
  const state = app.state;
  const toggle = $('analyse-toggle');
  const allowed = Boolean(state && (state.human === 'both' || state.result));
  toggle.disabled = !app.connected || !allowed;
  if (state && typeof state.analysis === 'boolean' && !app.analysePending) toggle.checked = state.analysis;
  if (!allowed) toggle.checked = false;
  $('analysis-unavailable').hidden = !state || allowed;
}

function renderReviewButtons() {
  const hasMoves = app.state && app.state.moves.length > 0;
  $('review-start').disabled = !app.connected || app.reviewing || !hasMoves;
  $('review-stop').disabled = !app.reviewing;
}

// Keeps the FEN field on the shown position, unless the user is typing in it.
function renderFenField() {
  const field = $('fen');
  if (document.activeElement !== field) field.value = app.editor ? editorFen() : currentFen();
}

// ---------------------------------------------------------------------------------------------
// The board

// Where a point is drawn: Red's side at the bottom unless the board is flipped.
function pointXY(square) {
  const { file, rank } = parseSquare(square);
  const column = app.flipped ? 8 - file : file;
  const row = app.flipped ? rank : 9 - rank;
  return [MARGIN + column * STEP, MARGIN + row * STEP];
}

// The square under a pointer event, or null off the board.
function squareAtEvent(event) {
  const local = svgPointOfEvent(event);
  const column = Math.round((local.x - MARGIN) / STEP);
  const row = Math.round((local.y - MARGIN) / STEP);
  if (column < 0 || column > 8 || row < 0 || row > 9) return null;
  const file = app.flipped ? 8 - column : column;
  const rank = app.flipped ? row : 9 - row;
  return squareName(file, rank);
}

// A pointer event's place in the board's SVG units.
function svgPointOfEvent(event) {
  const svg = $('board');
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

// The pieces shown: the editor's, or the cursor's position with a move just sent already made.
function shownPieces() {
  if (app.editor) return app.editor.board;
  const pieces = piecesOfFen(currentFen());
  if (app.pendingMove) {
    const { from, to } = app.pendingMove;
    pieces[to] = pieces[from];
    delete pieces[from];
  }
  return pieces;
}

// The squares of the move that led to the position shown, or null.
function lastMove() {
  const state = app.state;
  if (app.editor) return null;
  if (app.pendingMove) return [app.pendingMove.from, app.pendingMove.to];
  if (!state || state.cursor === 0) return null;
  const iccs = state.moves[state.cursor - 1].iccs;
  return [iccs.slice(0, 2), iccs.slice(2, 4)];
}

function legalMoves() {
  return app.state && !app.editor && !app.pendingMove ? app.state.legal || [] : [];
}

function targetsOf(from) {
  return legalMoves().filter((m) => m.startsWith(from)).map((m) => m.slice(2, 4));
}

function renderBoard() {
  const svg = $('board');
  app.drag = null;
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${BOARD_WIDTH} ${BOARD_HEIGHT}`);
  svg.classList.toggle('editing', Boolean(app.editor));
  drawDefinitions(svg);
  drawGrid(svg);
  drawPoints(svg);
  svgElement('g', { id: 'arrows' }, svg);
  renderArrow();
}

function drawDefinitions(svg) {
  const defs = svgElement('defs', {}, svg);
  const marker = svgElement('marker', {
    id: 'arrowhead', viewBox: '0 0 10 10', refX: '5', refY: '5',
    markerWidth: '3.2', markerHeight: '3.2', orient: 'auto-start-reverse',
  }, defs);
  svgElement('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }, marker);
  // The glow around a general in check: strong at the disc's edge, fading outwards.
  const glow = svgElement('radialGradient', { id: 'check-glow' }, defs);
  svgElement('stop', { offset: '0.6', 'stop-color': 'rgb(230, 0, 0)', 'stop-opacity': '0.95' }, glow);
  svgElement('stop', { offset: '1', 'stop-color': 'rgb(230, 0, 0)', 'stop-opacity': '0' }, glow);
}

function drawGrid(svg) {
  const grid = svgElement('g', { class: 'grid' }, svg);
  const left = MARGIN;
  const right = MARGIN + 8 * STEP;
  const top = MARGIN;
  const bottom = MARGIN + 9 * STEP;
  svgElement('rect', { class: 'wood', x: 0, y: 0, width: BOARD_WIDTH, height: BOARD_HEIGHT, rx: 6 }, grid);
  svgElement('rect', { class: 'frame', x: left - 6, y: top - 6, width: right - left + 12, height: bottom - top + 12 }, grid);
  const lines = [];
  for (let row = 0; row < 10; row++) lines.push([left, top + row * STEP, right, top + row * STEP]);
  for (let column = 0; column < 9; column++) {
    const x = left + column * STEP;
    if (column === 0 || column === 8) {
      lines.push([x, top, x, bottom]);
    } else {
      // The river cuts the inner files.
      lines.push([x, top, x, top + 4 * STEP]);
      lines.push([x, top + 5 * STEP, x, bottom]);
    }
  }
  // The palaces' diagonals, three ranks from either edge.
  for (const firstRow of [0, 7]) {
    const y1 = top + firstRow * STEP;
    const y2 = y1 + 2 * STEP;
    lines.push([left + 3 * STEP, y1, left + 5 * STEP, y2]);
    lines.push([left + 5 * STEP, y1, left + 3 * STEP, y2]);
  }
  for (const [x1, y1, x2, y2] of lines) svgElement('line', { x1, y1, x2, y2 }, grid);
  drawPositionMarks(grid);
  drawRiver(grid);
  drawCoordinates(grid);
}

// The small corner marks at the cannons' and soldiers' starting points.
function drawPositionMarks(grid) {
  const points = [[1, 2], [7, 2], [1, 7], [7, 7]];
  for (const column of [0, 2, 4, 6, 8]) points.push([column, 3], [column, 6]);
  const gap = 4;
  const length = 9;
  let d = '';
  for (const [column, row] of points) {
    const x = MARGIN + column * STEP;
    const y = MARGIN + row * STEP;
    for (const dx of [-1, 1]) {
      if ((column === 0 && dx < 0) || (column === 8 && dx > 0)) continue;
      for (const dy of [-1, 1]) {
        const cx = x + dx * gap;
        const cy = y + dy * gap;
        d += `M${cx + dx * length},${cy}L${cx},${cy}L${cx},${cy + dy * length}`;
      }
    }
  }
  svgElement('path', { d, class: 'marks' }, grid);
}

function drawRiver(grid) {
  const y = MARGIN + 4.5 * STEP;
  const [leftWords, rightWords] = app.letters ? ['Chu River', 'Han Border'] : ['楚 河', '漢 界'];
  const attributes = { y, class: app.letters ? 'river latin' : 'river' };
  svgElement('text', { ...attributes, x: MARGIN + 2 * STEP }, grid).textContent = leftWords;
  svgElement('text', { ...attributes, x: MARGIN + 6 * STEP }, grid).textContent = rightWords;
}

// ICCS file letters below the board and rank digits on its left, as the viewer sees them.
function drawCoordinates(grid) {
  for (let column = 0; column < 9; column++) {
    const file = app.flipped ? 8 - column : column;
    svgElement('text', {
      class: 'coordinate', x: MARGIN + column * STEP, y: BOARD_HEIGHT - 10,
    }, grid).textContent = FILES[file];
  }
  for (let row = 0; row < 10; row++) {
    const rank = app.flipped ? row : 9 - row;
    svgElement('text', {
      class: 'coordinate', x: 12, y: MARGIN + row * STEP,
    }, grid).textContent = String(rank);
  }
}

// One group per point: its click area, its highlights, and its piece if any. The piece sits
// inside its point so that a click on either lands on the point.
function drawPoints(svg) {
  const layer = svgElement('g', { id: 'points' }, svg);
  const pieces = shownPieces();
  const last = lastMove();
  const targets = app.selected ? targetsOf(app.selected) : [];
  const inCheck = app.state && !app.editor && !app.pendingMove ? app.state.in_check : null;
  for (let rank = 9; rank >= 0; rank--) {
    for (let file = 0; file < 9; file++) {
      const square = squareName(file, rank);
      const [x, y] = pointXY(square);
      const group = svgElement('g', { class: 'point', 'data-square': square }, layer);
      svgElement('rect', {
        class: 'hit', x: x - STEP / 2, y: y - STEP / 2, width: STEP, height: STEP,
      }, group);
      if (last && last.includes(square)) {
        svgElement('rect', {
          class: square === last[0] ? 'last-from' : 'last-to',
          x: x - STEP / 2 + 3, y: y - STEP / 2 + 3, width: STEP - 6, height: STEP - 6, rx: 6,
        }, group);
      }
      if (square === inCheck) svgElement('circle', { class: 'check', cx: x, cy: y, r: PIECE_RADIUS + 12 }, group);
      if (square === app.selected) svgElement('circle', { class: 'selected', cx: x, cy: y, r: PIECE_RADIUS + 3 }, group);
      const piece = pieces[square];
      if (piece) drawPiece(group, square, piece, x, y);
      if (targets.includes(square)) {
        svgElement('circle', {
          class: piece ? 'target capture' : 'target', cx: x, cy: y, r: piece ? PIECE_RADIUS + 2 : 7,
        }, group);
      }
    }
  }
}

function drawPiece(parent, square, letter, x, y) {
  const group = svgElement('g', {
    class: `piece ${pieceSide(letter)}`,
    'data-square': square,
    'data-piece': letter,
    transform: `translate(${x},${y})`,
  }, parent);
  svgElement('circle', { class: 'disc', r: PIECE_RADIUS }, group);
  svgElement('circle', { class: 'ring', r: PIECE_RADIUS - 4 }, group);
  const text = svgElement('text', { class: app.letters ? 'glyph latin' : 'glyph' }, group);
  text.textContent = app.letters ? letter : CHINESE[letter];
  return group;
}

// The best move of analysis line 1 as an arrow, when it is for the position shown.
function renderArrow() {
  const layer = $('arrows');
  if (!layer) return;
  layer.replaceChildren();
  const analysis = app.analysis;
  if (!$('analyse-toggle').checked || app.editor || !analysis || !app.state) return;
  if (analysis.ply !== app.state.cursor || !analysis.lines || !analysis.lines.length) return;
  const best = (analysis.lines[0].pv || [])[0];
  if (!best || best.length < 4) return;
  const [x1, y1] = pointXY(best.slice(0, 2));
  const [x2, y2] = pointXY(best.slice(2, 4));
  // Start off the piece's centre and stop short of the target so the head stays visible.
  const length = Math.hypot(x2 - x1, y2 - y1);
  const ux = (x2 - x1) / length;
  const uy = (y2 - y1) / length;
  svgElement('line', {
    class: 'best-arrow',
    x1: x1 + ux * 6, y1: y1 + uy * 6, x2: x2 - ux * 12, y2: y2 - uy * 12,
    'marker-end': 'url(#arrowhead)',
    'data-move': best,
  }, layer);
}

// ---------------------------------------------------------------------------------------------
// Moving pieces: click the piece then its target, or drag it there

function onBoardPointerDown(event) {
  if (event.button !== 0 || !app.state) return;
  const square = squareAtEvent(event);
  if (!square) return;
  event.preventDefault();
  const piece = shownPieces()[square];
  const draggable = !app.editor && piece && targetsOf(square).length > 0;
  app.drag = { square, draggable, startX: event.clientX, startY: event.clientY, moved: false, element: null };
  $('board').setPointerCapture(event.pointerId);
}

function onBoardPointerMove(event) {
  const drag = app.drag;
  if (!drag || !drag.draggable) return;
  if (!drag.moved) {
    if (Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY) < 5) return;
    drag.moved = true;
    startDrag(drag);
  }
  const point = svgPointOfEvent(event);
  drag.element.setAttribute('transform', `translate(${point.x},${point.y}) scale(1.1)`);
}

// Lifts the dragged piece above the others and shows where it may go.
function startDrag(drag) {
  if (app.selected !== drag.square) {
    app.selected = drag.square;
    renderBoard(); // shows the targets; it forgets the gesture, which goes on
    app.drag = drag;
  }
  const element = $('board').querySelector(`.piece[data-square="${drag.square}"]`);
  element.classList.add('dragging');
  $('arrows').after(element); // the last child is drawn on top
  drag.element = element;
}

function onBoardPointerUp(event) {
  const drag = app.drag;
  app.drag = null;
  if (!drag) return;
  if (!drag.moved) {
    onSquareClick(drag.square);
    return;
  }
  const target = squareAtEvent(event);
  if (target && target !== drag.square) {
    tryMove(drag.square, target);
  } else {
    renderBoard(); // back to its point, still selected
  }
}

function onBoardPointerCancel() {
  if (app.drag) renderBoard();
}

function onSquareClick(square) {
  if (app.editor) {
    editSquare(square);
    return;
  }
  clearMessage();
  const pieces = shownPieces();
  const piece = pieces[square];
  const movable = piece && targetsOf(square).length > 0;
  if (app.selected) {
    if (square === app.selected) {
      app.selected = null;
    } else if (movable) {
      app.selected = square;
    } else {
      tryMove(app.selected, square);
      return;
    }
  } else if (movable) {
    app.selected = square;
  } else if (piece && app.state && pieceSide(piece) === app.state.side_to_move) {
    explainNoMove();
  }
  renderBoard();
}

// Why the piece the user clicked cannot move now.
function explainNoMove() {
  const state = app.state;
  if (state.result) showMessage('The game is over.', 'notice');
  else if (state.thinking) showMessage('Wait: the engine is thinking.', 'notice');
  else if (!state.legal || state.legal.length === 0) showMessage('It is not your move.', 'notice');
  else showMessage('That piece has no legal move.', 'notice');
}

// Sends the move if it is legal; otherwise the piece goes back.
function tryMove(from, to) {
  const move = from + to;
  app.selected = null;
  if (legalMoves().includes(move)) {
    if (send({ type: 'move', move })) app.pendingMove = { from, to };
  } else {
    showMessage(`${move} is not a legal move here.`, 'error');
  }
  renderBoard();
}

// ---------------------------------------------------------------------------------------------
// Players and clocks

function renderPlayers() {
  const state = app.state;
  const bottomSide = app.flipped ? 'black' : 'red';
  const topSide = app.flipped ? 'red' : 'black';
  renderPlayer($('player-top'), topSide, state);
  renderPlayer($('player-bottom'), bottomSide, state);
  tickClocks();
}

function renderPlayer(box, side, state) {
  box.dataset.side = side;
  let name = side === 'red' ? 'Red' : 'Black';
  if (state && state.human !== 'both') name += state.human === side ? ' · you' : ' · engine';
  box.querySelector('.player-name').textContent = name;
  box.classList.toggle('to-move', Boolean(state && !state.result && state.side_to_move === side));
}

// Counts the running clock down locally from the last state's reading.
function tickClocks() {
  const clocks = app.state && app.state.clocks;
  for (const box of [$('player-top'), $('player-bottom')]) {
    const clock = box.querySelector('.clock');
    if (!clocks) {
      clock.hidden = true;
      continue;
    }
    const side = box.dataset.side;
    let ms = side === 'red' ? clocks.red_ms : clocks.black_ms;
    const running = clocks.running === side && !app.state.result;
    if (running) ms -= performance.now() - app.clocksAt;
    clock.hidden = false;
    clock.textContent = formatClock(ms);
    clock.classList.toggle('running', running);
    clock.classList.toggle('low', ms < 20000);
  }
}

// ---------------------------------------------------------------------------------------------
// The move list

function renderMoves() {
  const list = $('moves');
  const state = app.state;
  const scrollTop = list.scrollTop;
  list.replaceChildren();
  if (!state) return;
  const start = htmlElement('button', { type: 'button', class: 'start', 'data-goto': '0' }, 'Start');
  if (state.cursor === 0) start.classList.add('current');
  list.appendChild(start);
  let number = moveNumberOfFen(state.start_fen);
  let row = null;
  state.moves.forEach((move, index) => {
    const ply = index + 1;
    if (!row || move.side === 'red') {
      row = htmlElement('div', { class: 'move-row' });
      row.appendChild(htmlElement('span', { class: 'number' }, `${number}.`));
      if (move.side === 'black') row.appendChild(htmlElement('span', { class: 'cell' }, '…'));
      list.appendChild(row);
    }
    row.appendChild(moveCell(move, ply, state.cursor === ply));
    if (move.side === 'black') number++;
  });
  list.scrollTop = scrollTop;
  scrollCurrentMoveIntoView();
}

// A move's cell: the move (marked with the review's judgement) and, for a bad move, the best.
function moveCell(move, ply, current) {
  const cell = htmlElement('span', { class: 'cell' });
  const button = htmlElement('button', { type: 'button', class: 'move', 'data-ply': String(ply), 'data-goto': String(ply) }, move.text || move.iccs);
  if (current) button.classList.add('current');
  cell.appendChild(button);
  const reviewed = reviewedMove(ply, move);
  if (reviewed) {
    button.classList.add('reviewed');
    button.title = `${scoreText(reviewed.score)} (depth ${reviewed.depth})`;
    if (reviewed.judgement) {
      button.classList.add(reviewed.judgement);
      button.appendChild(htmlElement('span', { class: 'glyph' }, JUDGEMENT_GLYPHS[reviewed.judgement]));
      if (!reviewed.found_best && reviewed.best) {
        cell.appendChild(htmlElement('span', { class: 'best' }, `best ${lineText(reviewed.best, 1)}`));
      }
    }
  }
  return cell;
}

// The review's entry for the move at `ply` when the review covers it (the same move there).
function reviewedMove(ply, move) {
  const moves = app.review && app.review.moves;
  if (!moves) return null;
  const reviewed = moves[ply - 1];
  return reviewed && reviewed.iccs === move.iccs ? reviewed : null;
}

function scrollCurrentMoveIntoView() {
  const list = $('moves');
  const current = list.querySelector('.current');
  if (!current) return;
  const top = current.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
}

function goto(ply) {
  const state = app.state;
  if (!state) return;
  const target = Math.max(0, Math.min(state.moves.length, ply));
  if (target !== state.cursor) send({ type: 'goto', ply: target });
}

// ---------------------------------------------------------------------------------------------
// Analysis

function renderAnalysis() {
  const box = $('analysis');
  const analysis = app.analysis;
  const on = $('analyse-toggle').checked;
  box.replaceChildren();
  $('analysis-info').textContent = '';
  if (!on) {
    box.appendChild(htmlElement('p', { class: 'hint' }, 'Analysis is off.'));
    return;
  }
  if (!analysis || !app.state || analysis.ply !== app.state.cursor) {
    box.appendChild(htmlElement('p', { class: 'hint' }, 'Thinking…'));
    return;
  }
  if (!analysis.lines || analysis.lines.length === 0) {
    box.appendChild(htmlElement('p', { class: 'hint' }, app.state.result ? 'The game is over.' : 'No lines yet.'));
    return;
  }
  box.appendChild(analysisHeader());
  for (const line of analysis.lines) box.appendChild(analysisLine(line));
  const first = analysis.lines[0];
  $('analysis-info').textContent = `${formatCount(first.nodes)} nodes · ${formatCount(first.nps)} nodes/s`;
}

function analysisHeader() {
  const header = htmlElement('div', { class: 'line-header' });
  const titles = [
    ['Depth', 'Search depth'], ['Score', "Red's view: pawns, or #N moves to mate"],
    ['Red · draw · Black', "Chances: Red wins, draw, Black wins"], ['Line', 'The line the engine expects'],
  ];
  for (const [text, title] of titles) header.appendChild(htmlElement('span', { title }, text));
  return header;
}

function analysisLine(line) {
  const row = htmlElement('div', { class: 'line', 'data-multipv': String(line.multipv) });
  row.appendChild(htmlElement('span', { class: 'depth', title: 'depth' }, String(line.depth)));
  const score = htmlElement('span', { class: 'score' }, line.score);
  score.classList.add(scoreFavours(line));
  row.appendChild(score);
  row.appendChild(wdlBar(line.wdl));
  row.appendChild(htmlElement('span', { class: 'pv' }, pvText(line)));
  return row;
}

// Which side the score favours, for its colour.
function scoreFavours(line) {
  const value = line.mate !== null && line.mate !== undefined ? line.mate : line.cp;
  if (value > 0) return 'favours-red';
  if (value < 0) return 'favours-black';
  return 'even';
}

function pvText(line) {
  const text = line.pv_text !== undefined ? line.pv_text : line.pv;
  return Array.isArray(text) ? text.join(' ') : String(text || '');
}

// Red's wins, draws and Black's wins (per mille) as one bar with a tooltip in percent.
function wdlBar(wdl) {
  const bar = htmlElement('span', { class: 'wdl' });
  if (!Array.isArray(wdl) || wdl.length !== 3) return bar;
  const total = wdl[0] + wdl[1] + wdl[2] || 1;
  const percents = wdl.map((value) => (100 * value) / total);
  ['red', 'draw', 'black'].forEach((kind, index) => {
    const part = htmlElement('i', { class: kind });
    part.style.width = `${percents[index]}%`;
    bar.appendChild(part);
  });
  bar.title = `Red wins ${percents[0].toFixed(0)}%, draw ${percents[1].toFixed(0)}%, Black wins ${percents[2].toFixed(0)}%`;
  bar.setAttribute('aria-label', bar.title);
  return bar;
}

function formatCount(n) {
  if (n === undefined || n === null) return '?';
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)} k`;
  return String(n);
}

function sendAnalyse() {
  const on = $('analyse-toggle').checked;
  const multipv = Math.max(1, Math.min(5, Number($('multipv').value) || 1));
  $('multipv').value = multipv;
  if (!on) app.analysis = null;
  app.analysePending = send({ type: 'analyse', on, multipv });
  renderAnalysis();
  renderArrow();
}

// ---------------------------------------------------------------------------------------------
// Review

function renderReview() {
  const game = app.review;
  const summary = $('review-summary');
  const graph = $('graph');
  const judgements = $('judgements');
  summary.replaceChildren();
  judgements.replaceChildren();
  if (!game) {
    graph.toggleAttribute('hidden', true); // an SVG element has no `hidden` property
    graph.replaceChildren();
    return;
  }
  summary.appendChild(summaryTable(game));
  if (game.result) summary.appendChild(htmlElement('p', {}, `The game is over: ${game.result}`));
  drawGraph(graph, game);
  graph.toggleAttribute('hidden', false);
  for (const move of game.moves || []) {
    if (move.judgement) judgements.appendChild(judgementItem(game, move));
  }
}

function summaryTable(game) {
  const table = htmlElement('table', { class: 'summary' });
  const head = htmlElement('tr');
  for (const title of ['', 'Accuracy', 'Inaccuracies', 'Mistakes', 'Blunders']) head.appendChild(htmlElement('th', {}, title));
  table.appendChild(head);
  for (const side of ['red', 'black']) {
    const s = game[side] || {};
    const row = htmlElement('tr', { class: side });
    const name = htmlElement('th', {}, side === 'red' ? 'Red' : 'Black');
    if (s.player) name.appendChild(htmlElement('small', {}, s.player));
    row.appendChild(name);
    row.appendChild(htmlElement('td', { class: 'accuracy' }, s.accuracy === null || s.accuracy === undefined ? '–' : `${s.accuracy}%`));
    row.appendChild(htmlElement('td', { class: 'inaccuracy' }, String(s.inaccuracies ?? 0)));
    row.appendChild(htmlElement('td', { class: 'mistake' }, String(s.mistakes ?? 0)));
    row.appendChild(htmlElement('td', { class: 'blunder' }, String(s.blunders ?? 0)));
    table.appendChild(row);
  }
  return table;
}

function judgementItem(game, move) {
  const item = htmlElement('li', { class: move.judgement, 'data-goto': String(move.ply) });
  const label = `${moveLabel(game.start || START_FEN, move.ply, move.side)} ${move.text}${JUDGEMENT_GLYPHS[move.judgement]}`;
  item.appendChild(htmlElement('strong', {}, label));
  // The loss is in percentage points of the mover's winning chances.
  const details = [`${move.judgement}: −${Number(move.loss).toFixed(1)}% winning chances`];
  if (!move.found_best && move.best) details.push(`best ${lineText(move.best, 4)} (${scoreText(move.best.score)})`);
  item.appendChild(htmlElement('span', {}, ` ${details.join('; ')}`));
  return item;
}

// The first `count` moves of a review line in the chosen notation.
function lineText(line, count) {
  const moves = line.text && line.text.length ? line.text : line.iccs || [];
  return moves.slice(0, count).join(' ');
}

// A review score ({cp} or {mate, winner}) as the engine writes scores, from Red's view.
function scoreText(score) {
  if (!score) return '';
  if (score.mate !== undefined) {
    if (score.mate === 0) return score.winner === 'red' ? '1-0' : '0-1';
    return `#${score.mate}`;
  }
  const pawns = score.cp / 100;
  return `${pawns >= 0 ? '+' : ''}${pawns.toFixed(2)}`;
}

// A review score as centipawns for the graph: cut at the limit, mates at the edge.
function graphValue(score) {
  if (!score) return 0;
  if (score.mate !== undefined) {
    const redWins = score.winner ? score.winner === 'red' : score.mate > 0;
    return redWins ? GRAPH_LIMIT_CP : -GRAPH_LIMIT_CP;
  }
  return Math.max(-GRAPH_LIMIT_CP, Math.min(GRAPH_LIMIT_CP, score.cp));
}

function drawGraph(svg, game) {
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${GRAPH_WIDTH} ${GRAPH_HEIGHT}`);
  const scores = game.scores || [];
  const plies = Math.max(1, scores.length - 1);
  const left = GRAPH_LEFT;
  const right = GRAPH_RIGHT;
  const top = 8;
  const bottom = GRAPH_HEIGHT - 8;
  const middle = (top + bottom) / 2;
  const x = (ply) => left + ((right - left) * ply) / plies;
  const y = (cp) => middle - ((middle - top) * cp) / GRAPH_LIMIT_CP;
  svgElement('rect', { class: 'graph-red', x: left, y: top, width: right - left, height: middle - top }, svg);
  svgElement('rect', { class: 'graph-black', x: left, y: middle, width: right - left, height: bottom - middle }, svg);
  for (const [cp, label] of [[GRAPH_LIMIT_CP, '+10'], [0, '0'], [-GRAPH_LIMIT_CP, '−10']]) {
    svgElement('text', { class: 'graph-label', x: left - 4, y: y(cp) }, svg).textContent = label;
  }
  svgElement('line', { class: 'graph-axis', x1: left, y1: middle, x2: right, y2: middle }, svg);
  const points = scores.map((score, ply) => [x(ply), y(graphValue(score))]);
  if (points.length) {
    const area = `M${x(0)},${middle} ` + points.map(([px, py]) => `L${px},${py}`).join(' ') + ` L${x(points.length - 1)},${middle} Z`;
    svgElement('path', { class: 'graph-area', d: area }, svg);
    svgElement('polyline', { class: 'graph-line', points: points.map((p) => p.join(',')).join(' ') }, svg);
  }
  if (app.state) {
    const cursorX = x(Math.min(app.state.cursor, plies));
    svgElement('line', { class: 'graph-cursor', x1: cursorX, y1: top, x2: cursorX, y2: bottom }, svg);
  }
  points.forEach(([px, py], ply) => {
    const move = ply > 0 ? (game.moves || [])[ply - 1] : null;
    const judgement = move && move.judgement;
    const point = svgElement('circle', {
      class: `graph-point${judgement ? ` ${judgement}` : ''}`,
      cx: px, cy: py, r: judgement ? 4.5 : 2.5, 'data-ply': String(ply),
    }, svg);
    const title = svgElement('title', {}, point);
    title.textContent = ply === 0 ? `start: ${scoreText(scores[0])}` : `${move ? move.text : ply}: ${scoreText(scores[ply])}${judgement ? ` (${judgement})` : ''}`;
  });
}

// A click on the graph goes to the point clicked, or the nearest ply along the axis.
function onGraphClick(event) {
  const point = event.target.closest('.graph-point');
  if (point) {
    goto(Number(point.dataset.ply));
    return;
  }
  const svg = $('graph');
  const scores = (app.review && app.review.scores) || [];
  if (scores.length < 2) return;
  const box = svg.getBoundingClientRect();
  const x = ((event.clientX - box.left) / box.width) * GRAPH_WIDTH;
  const ply = Math.round(((x - GRAPH_LEFT) / (GRAPH_RIGHT - GRAPH_LEFT)) * (scores.length - 1));
  goto(Math.max(0, Math.min(scores.length - 1, ply)));
}

function startReview() {
  const depth = Math.max(1, Number($('review-depth').value) || 10);
  app.reviewProgressSeen = false;
  if (send({ type: 'review', depth })) {
    app.reviewing = true;
    const bar = $('review-progress');
    bar.hidden = false;
    bar.value = 0;
    bar.max = 1;
    renderReviewButtons();
  }
}

function stopReview() {
  send({ type: 'stop_review' });
  app.reviewing = false;
  renderReviewButtons();
}

// ---------------------------------------------------------------------------------------------
// Opening files

async function openFile(file) {
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  app.lastFile = { name: file.name, data: bytesToBase64(bytes) };
  $('open-game').value = 1;
  sendOpen();
  selectTab('review');
}

function sendOpen() {
  if (!app.lastFile) return;
  const game = Math.max(1, Number($('open-game').value) || 1);
  app.review = null;
  send({ type: 'open', name: app.lastFile.name, data: app.lastFile.data, game });
}

function setUpFileDrop() {
  const hint = $('drop-hint');
  let depth = 0; // dragenter/dragleave fire for every child crossed
  document.addEventListener('dragenter', (event) => {
    if (!event.dataTransfer || !Array.from(event.dataTransfer.types).includes('Files')) return;
    depth++;
    hint.hidden = false;
  });
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) hint.hidden = true;
  });
  document.addEventListener('dragover', (event) => event.preventDefault());
  document.addEventListener('drop', (event) => {
    event.preventDefault();
    depth = 0;
    hint.hidden = true;
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) openFile(file);
  });
}

// ---------------------------------------------------------------------------------------------
// The board editor

function openEditor() {
  const fen = currentFen();
  app.editor = { board: piecesOfFen(fen), tool: 'K', awaitingReply: false };
  $(sideToMoveOfFen(fen) === 'black' ? 'editor-side-black' : 'editor-side-red').checked = true;
  app.selected = null;
  $('editor').hidden = false;
  $('editor-toggle').setAttribute('aria-expanded', 'true');
  $('editor-toggle').textContent = 'Close editor';
  renderPalette();
  renderBoard();
  renderFenField();
}

function closeEditor() {
  app.editor = null;
  $('editor').hidden = true;
  $('editor-toggle').setAttribute('aria-expanded', 'false');
  $('editor-toggle').textContent = 'Edit position';
  renderBoard();
  renderFenField();
}

function renderPalette() {
  const palette = $('palette');
  palette.replaceChildren();
  for (const letter of 'KABNRCPkabnrcp') {
    const button = htmlElement('button', {
      type: 'button', class: `palette-piece ${pieceSide(letter)}`, 'data-piece': letter,
      title: `Place ${pieceSide(letter)} ${letter}`, 'aria-pressed': String(app.editor.tool === letter),
    }, app.letters ? letter : CHINESE[letter]);
    palette.appendChild(button);
  }
  const eraser = htmlElement('button', {
    type: 'button', class: 'palette-erase', 'data-piece': 'erase', title: 'Empty squares',
    'aria-pressed': String(app.editor.tool === 'erase'),
  }, '⌫');
  palette.appendChild(eraser);
}

function editSquare(square) {
  const { board, tool } = app.editor;
  if (tool === 'erase' || board[square] === tool) {
    delete board[square];
  } else {
    // A side has one general: placing it moves it.
    if (tool === 'K' || tool === 'k') {
      for (const [other, piece] of Object.entries(board)) if (piece === tool) delete board[other];
    }
    board[square] = tool;
  }
  renderBoard();
  renderFenField();
}

function editorSide() {
  return $('editor-side-black').checked ? 'black' : 'red';
}

function editorFen() {
  return fenOfPieces(app.editor.board, editorSide());
}

function finishEditing() {
  app.editor.awaitingReply = send({ type: 'set_fen', fen: editorFen() });
}

// ---------------------------------------------------------------------------------------------
// Rule options and notations from `hello`

function fillNotations(notations) {
  const select = $('notation');
  if (!Array.isArray(notations) || notations.length === 0) return;
  const chosen = select.value;
  select.replaceChildren();
  for (const name of notations) select.appendChild(htmlElement('option', { value: name }, NOTATION_LABELS[name] || name));
  if (notations.includes(chosen)) select.value = chosen;
}

function renderRuleOptions(options) {
  const box = $('rule-options');
  box.replaceChildren();
  if (options.length === 0) {
    box.appendChild(htmlElement('p', { class: 'hint' }, 'The engine lists no rule options.'));
    return;
  }
  options.forEach((option, index) => {
    const id = `rule-option-${index}`;
    box.appendChild(htmlElement('label', { for: id }, option.name));
    box.appendChild(ruleOptionControl(option, id));
  });
}

function ruleOptionControl(option, id) {
  let control;
  if (option.kind === 'check') {
    control = htmlElement('input', { type: 'checkbox', id });
    control.checked = String(option.value) === 'true';
  } else if (option.kind === 'combo') {
    control = htmlElement('select', { id });
    for (const value of option.values || []) control.appendChild(htmlElement('option', { value }, value));
    control.value = String(option.value);
  } else {
    control = htmlElement('input', { type: 'number', id });
    if (option.min !== undefined && option.min !== null) control.min = option.min;
    if (option.max !== undefined && option.max !== null) control.max = option.max;
    control.value = option.value;
  }
  control.dataset.option = option.name;
  control.title = `default: ${option.default}`;
  control.addEventListener('change', () => {
    const value = option.kind === 'check' ? String(control.checked) : String(control.value);
    send({ type: 'option', name: option.name, value });
  });
  return control;
}

// ---------------------------------------------------------------------------------------------
// Play controls

function fillLevels() {
  const select = $('level');
  for (let level = 0; level <= 20; level++) {
    const label = level === 20 ? 'Level 20 (full strength)' : `Level ${level}`;
    select.appendChild(htmlElement('option', { value: String(level) }, label));
  }
  select.appendChild(htmlElement('option', { value: 'elo' }, 'Elo…'));
  select.value = localStorage.getItem('cotuong.level') || '10';
}

// The time control chosen: clocks {base_s, inc_s}, or a fixed time a move without clocks.
function chosenTimeControl() {
  const choice = $('time').value;
  if (choice.startsWith('move:')) return { time: null, movetime_ms: Number(choice.slice(5)) };
  const text = choice === 'custom' ? $('time-custom').value : choice;
  const match = /^\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!match) return null;
  return { time: { base_s: Math.round(Number(match[1]) * 60), inc_s: Math.round(Number(match[2])) }, movetime_ms: 1000 };
}

function newGame() {
  const side = $('side').value;
  const timeControl = chosenTimeControl();
  if (!timeControl) {
    showMessage('Write the time control as minutes+seconds, e.g. 5+3.', 'error');
    return;
  }
  const level = $('level').value;
  const useElo = level === 'elo';
  app.review = null;
  app.analysis = null;
  // The player's side at the bottom.
  if (side !== 'both') setFlipped(side === 'black');
  send({
    type: 'new_game',
    fen: 'startpos',
    human: side,
    level: useElo ? null : Number(level),
    elo: useElo ? Number($('elo').value) : null,
    time: timeControl.time,
    movetime_ms: timeControl.movetime_ms,
  });
}

function setFlipped(flipped) {
  app.flipped = flipped;
  localStorage.setItem('cotuong.flipped', flipped ? '1' : '0');
  renderBoard();
  renderPlayers();
}

// ---------------------------------------------------------------------------------------------
// Tabs

function selectTab(name) {
  for (const tab of ['play', 'analyse', 'review']) {
    const selected = tab === name;
    $(`tab-${tab}`).setAttribute('aria-selected', String(selected));
    $(`panel-${tab}`).hidden = !selected;
  }
  localStorage.setItem('cotuong.tab', name);
}

// ---------------------------------------------------------------------------------------------
// Keyboard: browse the moves unless the user is typing

function onKeyDown(event) {
  if (isTypingTarget(event.target) || event.altKey || event.ctrlKey || event.metaKey || !app.state) return;
  const cursor = app.state.cursor;
  const moves = {
    ArrowLeft: cursor - 1, ArrowRight: cursor + 1, Home: 0, End: app.state.moves.length,
  };
  if (event.key in moves) {
    event.preventDefault();
    goto(moves[event.key]);
  } else if (event.key === 'Escape' && app.selected) {
    app.selected = null;
    renderBoard();
  }
}

// ---------------------------------------------------------------------------------------------
// Wiring

function bindControls() {
  const board = $('board');
  board.addEventListener('pointerdown', onBoardPointerDown);
  board.addEventListener('pointermove', onBoardPointerMove);
  board.addEventListener('pointerup', onBoardPointerUp);
  board.addEventListener('pointercancel', onBoardPointerCancel);

  $('message-close').addEventListener('click', clearMessage);
  $('flip').addEventListener('click', () => setFlipped(!app.flipped));
  $('letters').addEventListener('change', () => {
    app.letters = $('letters').checked;
    localStorage.setItem('cotuong.letters', app.letters ? '1' : '0');
    renderBoard();
    if (app.editor) renderPalette();
  });
  $('notation').addEventListener('change', () => send({ type: 'notation', notation: $('notation').value }));
  $('nav-first').addEventListener('click', () => goto(0));
  $('nav-prev').addEventListener('click', () => app.state && goto(app.state.cursor - 1));
  $('nav-next').addEventListener('click', () => app.state && goto(app.state.cursor + 1));
  $('nav-last').addEventListener('click', () => app.state && goto(app.state.moves.length));

  for (const tab of ['play', 'analyse', 'review']) $(`tab-${tab}`).addEventListener('click', () => selectTab(tab));

  $('level').addEventListener('change', () => {
    $('elo').hidden = $('level').value !== 'elo';
    localStorage.setItem('cotuong.level', $('level').value);
  });
  $('time').addEventListener('change', () => { $('time-custom').hidden = $('time').value !== 'custom'; });
  $('new-game').addEventListener('click', newGame);
  $('undo').addEventListener('click', () => send({ type: 'undo' }));
  $('offer-draw').addEventListener('click', () => send({ type: 'offer_draw' }));
  $('resign').addEventListener('click', () => send({ type: 'resign' }));
  $('save-pgn').addEventListener('click', () => send({ type: 'save_pgn' }));

  $('analyse-toggle').addEventListener('change', sendAnalyse);
  $('analysis-board').addEventListener('click', () => send({ type: 'set_fen', fen: currentFen() }));
  $('multipv').addEventListener('change', () => { if ($('analyse-toggle').checked) sendAnalyse(); });
  $('set-fen').addEventListener('click', () => send({ type: 'set_fen', fen: $('fen').value.trim() }));
  $('fen').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') send({ type: 'set_fen', fen: $('fen').value.trim() });
  });
  $('copy-fen').addEventListener('click', copyFen);
  $('editor-toggle').addEventListener('click', () => (app.editor ? closeEditor() : openEditor()));
  $('palette').addEventListener('click', (event) => {
    const button = event.target.closest('button[data-piece]');
    if (!button || !app.editor) return;
    app.editor.tool = button.dataset.piece;
    renderPalette();
  });
  for (const id of ['editor-side-red', 'editor-side-black']) $(id).addEventListener('change', renderFenField);
  $('editor-start').addEventListener('click', () => setEditorBoard(START_FEN));
  $('editor-clear').addEventListener('click', () => setEditorBoard('4k4/9/9/9/9/9/9/9/9/4K4 w'));
  $('editor-done').addEventListener('click', finishEditing);
  $('editor-cancel').addEventListener('click', closeEditor);

  $('open-file').addEventListener('change', () => openFile($('open-file').files[0]));
  $('open-game').addEventListener('change', sendOpen);
  $('review-start').addEventListener('click', startReview);
  $('review-stop').addEventListener('click', stopReview);
  $('graph').addEventListener('click', onGraphClick);

  // Clicks on moves, the start and the judgements all go to a ply.
  for (const id of ['moves', 'judgements']) {
    $(id).addEventListener('click', (event) => {
      const target = event.target.closest('[data-goto]');
      if (target) goto(Number(target.dataset.goto));
    });
  }
  document.addEventListener('keydown', onKeyDown);
  setUpFileDrop();
}

// "Clear" keeps the two generals: a position needs them, and the user moves them where wanted.
function setEditorBoard(fen) {
  if (!app.editor) return;
  app.editor.board = piecesOfFen(fen);
  $(sideToMoveOfFen(fen) === 'black' ? 'editor-side-black' : 'editor-side-red').checked = true;
  renderBoard();
  renderFenField();
}

async function copyFen() {
  const fen = $('fen').value.trim();
  try {
    await navigator.clipboard.writeText(fen);
    showMessage('FEN copied.', 'notice');
  } catch (error) {
    // Without clipboard access, leave the FEN selected for Ctrl-C.
    $('fen').focus();
    $('fen').select();
    showMessage('Press Ctrl-C to copy the selected FEN.', 'notice');
  }
}

function init() {
  fillLevels();
  $('elo').hidden = $('level').value !== 'elo';
  $('letters').checked = app.letters;
  selectTab(localStorage.getItem('cotuong.tab') || 'play');
  bindControls();
  renderAll();
  setInterval(tickClocks, 200);
  connect();
}

init();
