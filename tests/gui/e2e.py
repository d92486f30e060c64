#!/usr/bin/env python3
"""End-to-end tests of `cotuong gui`: the server and its page in headless Chromium.

    python3 tests/gui/e2e.py [BINARY] [--screenshots] [-k NAME]

BINARY is the cotuong binary (default target/release/cotuong). Each test starts its own
`cotuong gui --no-browser --port 0`, reads the address it prints, and drives the page with
Playwright (sync API) in Debian's /usr/bin/chromium; the WebSocket origin test needs no browser.
With --screenshots, the play, analysis and review tests also save docs/images/gui-play.png,
gui-analyse.png and gui-review.png. Needs Python 3 with `playwright` (pip) and Chromium; nothing
else. Prints each test's result; exits non-zero when one fails.
"""

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

CHROMIUM = '/usr/bin/chromium'
CHROMIUM_ARGS = [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
]
VIEWPORT = {'width': 1280, 'height': 800}
ADDRESS = re.compile(r'(http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_.~%-]+))')
# How long the server may take to print its address, and a page to get its first state.
START_TIMEOUT_S = 60
# The machine may be busy: the engine's reply and the review get generous limits.
ENGINE_REPLY_TIMEOUT_MS = 30_000
REVIEW_TIMEOUT_MS = 180_000

# A short game in ICCS (ranks 0-9) for the review.
SHORT_GAME = """[Event "cotuong gui end-to-end test"]
[Red "Red player"]
[Black "Black player"]
[Result "*"]

1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b2c2 a9b9 *
"""
SHORT_GAME_PLIES = 8

SETTINGS = {'binary': 'target/release/cotuong', 'screenshots': False, 'images': 'docs/images'}


class GuiServer:
    """`cotuong gui --no-browser --port 0` running until stop(); its output is kept for failures."""

    def __init__(self, binary):
        self.output = []
        self.process = subprocess.Popen(
            [binary, 'gui', '--no-browser', '--port', '0'],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, encoding='utf-8', errors='replace')
        found = threading.Event()
        self.url = None

        # Reads the output to the end so that the server never blocks on a full pipe.
        def read_output():
            for line in self.process.stdout:
                self.output.append(line.rstrip('\n'))
                match = ADDRESS.search(line)
                if match and not found.is_set():
                    self.url, self.port, self.token = match.group(1), int(match.group(2)), match.group(3)
                    found.set()
            found.set()

        threading.Thread(target=read_output, daemon=True).start()
        if not found.wait(START_TIMEOUT_S) or self.url is None:
            self.stop()
            raise RuntimeError('cotuong gui printed no address; its output:\n' + '\n'.join(self.output))

    def stop(self):
        """Ctrl-C, as a user stops it; killed if it does not end."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def websocket_handshake_status(port, path, origin):
    """The HTTP status of a WebSocket opening handshake on 127.0.0.1:port (101: accepted)."""
    request = (
        f'GET {path} HTTP/1.1\r\n'
        f'Host: 127.0.0.1:{port}\r\n'
        'Upgrade: websocket\r\n'
        'Connection: Upgrade\r\n'
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'
        'Sec-WebSocket-Version: 13\r\n'
        f'Origin: {origin}\r\n'
        '\r\n')
    with socket.create_connection(('127.0.0.1', port), timeout=10) as connection:
        connection.sendall(request.encode('ascii'))
        reply = b''
        while b'\r\n' not in reply:
            chunk = connection.recv(4096)
            if not chunk:
                break
            reply += chunk
    status_line = reply.split(b'\r\n', 1)[0].decode('latin-1')
    match = re.match(r'HTTP/1\.[01] (\d{3})', status_line)
    if not match:
        raise AssertionError(f'no HTTP status line in the reply: {reply[:200]!r}')
    return int(match.group(1))


class BrowserTest(unittest.TestCase):
    """A fresh server and a fresh page per test; one Chromium for them all."""

    playwright = None
    browser = None

    @classmethod
    def setUpClass(cls):
        from playwright.sync_api import sync_playwright
        cls.playwright = sync_playwright().start()
        cls.browser = cls.playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        cls.playwright.stop()

    def setUp(self):
        self.server = GuiServer(SETTINGS['binary'])
        self.context = self.browser.new_context(viewport=VIEWPORT, accept_downloads=True)
        self.page = self.context.new_page()
        self.page_errors = []
        self.page.on('pageerror', lambda error: self.page_errors.append(str(error)))
        self.page.goto(self.server.url)
        self.page.wait_for_selector('#status:text-is("connected")', timeout=START_TIMEOUT_S * 1000)
        # The first state has arrived when the board shows its pieces.
        self.page.wait_for_selector('#board .piece', timeout=START_TIMEOUT_S * 1000)

    def tearDown(self):
        self.context.close()
        self.server.stop()
        if self._outcome_failed():
            sys.stderr.write('--- cotuong gui output ---\n' + '\n'.join(self.server.output[-40:]) + '\n')
        self.assertEqual(self.page_errors, [], 'the page raised errors')

    def _outcome_failed(self):
        result = getattr(self._outcome, 'result', None)
        errors = getattr(result, 'errors', []) + getattr(result, 'failures', [])
        return any(test is self for test, _ in errors)

    # Helpers

    def screenshot(self, name):
        if SETTINGS['screenshots']:
            os.makedirs(SETTINGS['images'], exist_ok=True)
            self.page.mouse.move(0, 0)  # no hover effects in the picture
            self.page.screenshot(path=os.path.join(SETTINGS['images'], name))

    def move_count(self):
        return self.page.locator('#moves .move').count()

    def click_square(self, square):
        self.page.click(f'#board .point[data-square="{square}"]')

    def play_by_clicks(self, source, target):
        """Picks the piece up (again, until the page shows its targets: the state with the legal
        moves may still be on its way) and puts it down on `target`."""
        for _ in range(20):
            self.click_square(source)
            if self.page.locator(f'#board .point[data-square="{source}"] .selected').count():
                break
            time.sleep(0.5)
        else:
            self.fail(f'the piece on {source} cannot be picked up')
        self.click_square(target)

    def start_game_as_red(self):
        self.page.click('#tab-play')
        self.page.select_option('#side', 'red')
        self.page.select_option('#time', 'move:1000')
        self.page.click('#new-game')
        self.page.wait_for_function("document.querySelectorAll('#moves .move').length === 0")


class PlayTest(BrowserTest):
    def test_a_move_by_clicks_gets_the_engines_reply(self):
        self.start_game_as_red()
        self.play_by_clicks('h2', 'e2')
        self.page.wait_for_function("document.querySelectorAll('#moves .move').length >= 2",
                                    timeout=ENGINE_REPLY_TIMEOUT_MS)
        page = self.page
        self.assertEqual(page.locator('#board .piece[data-square="e2"]').get_attribute('data-piece'), 'C')
        self.assertEqual(page.locator('#board .piece[data-square="h2"]').count(), 0)
        page.select_option('#notation', 'iccs')
        page.wait_for_selector('#moves .move[data-ply="1"]:text-is("h2e2")')
        # The reply is the current move, and its last-move mark is on the board.
        page.wait_for_selector('#moves .move[data-ply="2"].current')
        self.assertEqual(page.locator('#board .last-to').count(), 1)
        page.select_option('#notation', 'chinese')
        page.wait_for_selector('#moves .move[data-ply="1"]:text-is("炮二平五")')
        if SETTINGS['screenshots']:
            # One more move for the picture, the horse out if the engine's reply left it free.
            if page.evaluate("app.state.legal.includes('h0g2')"):
                self.play_by_clicks('h0', 'g2')
                page.wait_for_function("document.querySelectorAll('#moves .move').length >= 4",
                                       timeout=ENGINE_REPLY_TIMEOUT_MS)
            self.screenshot('gui-play.png')

    def test_an_illegal_move_is_refused_on_the_page(self):
        self.start_game_as_red()
        page = self.page
        # The advisor may go to e1 only; d2 is outside its diagonal steps.
        self.play_by_clicks('d0', 'd2')
        page.wait_for_selector('#message.error:has-text("not a legal move")')
        self.assertEqual(page.locator('#board .piece[data-square="d0"][data-piece="A"]').count(), 1)
        self.assertEqual(self.move_count(), 0)
        # The next action dismisses the message.
        self.play_by_clicks('h2', 'e2')
        page.wait_for_selector('#message', state='hidden')
        page.wait_for_function("document.querySelectorAll('#moves .move').length >= 1")

    def test_drag_and_drop_on_an_analysis_board(self):
        page = self.page
        page.click('#tab-play')
        page.select_option('#side', 'both')
        page.click('#new-game')
        page.wait_for_selector('#panel-play:has-text("Analysis board")')
        self.drag('h2', 'e2')
        page.wait_for_function("document.querySelectorAll('#moves .move').length === 1")
        self.assertEqual(page.locator('#board .piece[data-square="e2"]').get_attribute('data-piece'), 'C')
        # A horse cannot go straight ahead: the piece goes back, nothing is sent.
        self.drag('h9', 'h5')
        page.wait_for_selector('#message.error:has-text("not a legal move")')
        self.assertEqual(page.locator('#board .piece[data-square="h9"][data-piece="n"]').count(), 1)
        self.assertEqual(page.locator('#board .piece[data-square="h5"]').count(), 0)
        self.drag('h9', 'g7')
        page.wait_for_function("document.querySelectorAll('#moves .move').length === 2")
        self.assertEqual(page.locator('#board .piece[data-square="g7"]').get_attribute('data-piece'), 'n')

    def drag(self, source, target):
        """Drags the piece on `source` to the point `target` with the mouse, in small steps."""
        start = self.page.locator(f'#board .piece[data-square="{source}"]').bounding_box()
        end = self.page.locator(f'#board .point[data-square="{target}"] .hit').bounding_box()
        mouse = self.page.mouse
        mouse.move(start['x'] + start['width'] / 2, start['y'] + start['height'] / 2)
        mouse.down()
        mouse.move(end['x'] + end['width'] / 2, end['y'] + end['height'] / 2, steps=10)
        mouse.up()

    def test_a_stopped_server_is_reported(self):
        self.server.stop()
        self.page.wait_for_selector('#status:text-is("disconnected")')
        self.assertIn('Disconnected from the engine', self.page.text_content('#message'))


class AnalysisTest(BrowserTest):
    def test_live_analysis_deepens(self):
        page = self.page
        # The engine analyses on an analysis board (or after a game), not while it plays one.
        page.click('#tab-analyse')
        page.wait_for_selector('#analyse-toggle:disabled')
        page.click('#analysis-board')
        page.wait_for_selector('#analyse-toggle:enabled')
        page.fill('#multipv', '3')
        page.check('#analyse-toggle')
        page.wait_for_selector('#analysis .line .depth', timeout=30_000)
        first = self.depth_of_first_line()
        deadline = time.time() + 20
        while time.time() < deadline and self.depth_of_first_line() <= first:
            time.sleep(0.25)
        self.assertGreater(self.depth_of_first_line(), first, 'the depth did not increase')
        self.assertRegex(page.text_content('#analysis .line .score'), r'^(#-?\d+|[+-]\d+\.\d\d)$')
        self.assertTrue(page.text_content('#analysis .line .pv').strip())
        # (attached: a straight up-and-down arrow has no width, which Playwright calls hidden)
        page.wait_for_selector('#board .best-arrow', state='attached')
        # Let it search a little longer: three lines and a deeper search in the picture.
        if SETTINGS['screenshots']:
            page.wait_for_function("document.querySelectorAll('#analysis .line').length === 3",
                                   timeout=30_000)
            time.sleep(3)
            self.screenshot('gui-analyse.png')
        page.uncheck('#analyse-toggle')
        page.wait_for_selector('#board .best-arrow', state='detached')

    def depth_of_first_line(self):
        text = self.page.text_content('#analysis .line .depth') or ''
        match = re.search(r'\d+', text)
        return int(match.group()) if match else 0


class ReviewTest(BrowserTest):
    def test_review_of_an_opened_game(self):
        page = self.page
        page.click('#tab-review')
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, 'short.pgn')
            with open(path, 'w', encoding='utf-8') as file:
                file.write(SHORT_GAME)
            page.set_input_files('#open-file', path)
            page.wait_for_function(
                f"document.querySelectorAll('#moves .move').length === {SHORT_GAME_PLIES}")
        page.fill('#review-depth', '4')
        page.click('#review-start')
        page.wait_for_selector('#review-summary .accuracy', timeout=REVIEW_TIMEOUT_MS)
        summary = page.text_content('#review-summary')
        self.assertRegex(summary, r'\d+(\.\d)?%', 'no accuracy in the summary')
        self.assertEqual(page.locator('#moves .move.reviewed').count(), SHORT_GAME_PLIES,
                         'not every move was reviewed')
        # A point per position: the start and each move.
        for ply in range(SHORT_GAME_PLIES + 1):
            self.assertEqual(page.locator(f'#graph .graph-point[data-ply="{ply}"]').count(), 1,
                             f'no point for ply {ply}')
        self.assertEqual(page.get_attribute('#review-progress', 'value'),
                         page.get_attribute('#review-progress', 'max'))
        # A click on the graph goes to that ply.
        page.click('#graph .graph-point[data-ply="5"]', force=True)
        page.wait_for_selector('#moves .move[data-ply="5"].current')
        # The keyboard browses the moves.
        page.keyboard.press('ArrowRight')
        page.wait_for_selector('#moves .move[data-ply="6"].current')
        page.keyboard.press('Home')
        page.wait_for_selector('#moves .start.current')
        page.keyboard.press('End')
        page.wait_for_selector(f'#moves .move[data-ply="{SHORT_GAME_PLIES}"].current')
        if SETTINGS['screenshots']:
            page.click('#moves .move[data-ply="6"]')
            page.wait_for_selector('#moves .move[data-ply="6"].current')
            self.screenshot('gui-review.png')


class OriginTest(unittest.TestCase):
    """The WebSocket is refused to other sites' pages and to a wrong token."""

    def setUp(self):
        self.server = GuiServer(SETTINGS['binary'])

    def tearDown(self):
        self.server.stop()

    def test_cross_origin_and_wrong_token_are_refused(self):
        port, token = self.server.port, self.server.token
        own_origin = f'http://127.0.0.1:{port}'
        self.assertEqual(websocket_handshake_status(port, f'/ws?token={token}', 'http://evil.example'), 403)
        self.assertEqual(websocket_handshake_status(port, '/ws?token=wrong' + token, own_origin), 403)
        # The same handshake from the page's own origin with the token is accepted: the refusals
        # above are the origin's and the token's doing.
        self.assertEqual(websocket_handshake_status(port, f'/ws?token={token}', own_origin), 101)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('binary', nargs='?', default=SETTINGS['binary'], help='the cotuong binary')
    parser.add_argument('--screenshots', action='store_true',
                        help='save docs/images/gui-play.png, gui-analyse.png and gui-review.png')
    parser.add_argument('-k', dest='pattern', help='run only the tests whose name contains this')
    options = parser.parse_args()
    if not os.access(options.binary, os.X_OK):
        sys.exit(f'no cotuong binary at {options.binary} (build it: cargo build --release --bin cotuong)')
    SETTINGS['binary'] = os.path.abspath(options.binary)
    SETTINGS['screenshots'] = options.screenshots
    loader = unittest.TestLoader()
    if options.pattern:
        loader.testNamePatterns = [f'*{options.pattern}*']
    suite = unittest.TestSuite(
        loader.loadTestsFromTestCase(case) for case in (PlayTest, AnalysisTest, ReviewTest, OriginTest))
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == '__main__':
    main()
