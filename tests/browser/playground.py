"""Drives the playground page in headless Chromium, as a player would.

    python tests/browser/playground.py BASE_URL OUTPUT_DIR

Plays a gomoku game to its end (with a hint and an undo on the way), a Dou
Dizhu deal to its end (bidding, doubling, hints), solves an endgame puzzle,
analyses mahjong hands, shows a problem for a bad hand, plays a Riichi hand
against three bots to its end on the bot's hints, and checks that no panel is
wider than a phone screen. Fails on any console error except the
one 422 the bad hand asks for. Screenshots of each panel go to OUTPUT_DIR.
Run by .ci/playground.sh against the release binary.
"""

import pathlib
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

BASE, OUT = sys.argv[1].rstrip("/"), pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)
for old in OUT.glob("*.png"):
    old.unlink()
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def browser():
    options = Options()
    options.binary_location = CHROMIUM
    for flag in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tempfile.mkdtemp(prefix='playground-chromium-')}",
        "--window-size=1000,1500",
    ]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


driver = browser()


def js(script, *args):
    return driver.execute_script(script, *args)


def wait_for(what, condition, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def check_console(step, allow=()):
    """Fails on console errors, but for entries that contain one of `allow`."""
    errors = [
        e["message"]
        for e in driver.get_log("browser")
        if e["level"] == "SEVERE" and not any(a in e["message"] for a in allow)
    ]
    assert not errors, f"console errors during {step}: {errors}"


def problem_shown(panel):
    text = js(f"const p = document.getElementById('{panel}-problem'); return p.hidden ? '' : p.textContent;")
    assert not text, f"{panel} shows a problem: {text}"


def tab(name):
    driver.find_element(By.CSS_SELECTOR, f'#tabs button[data-tab="{name}"]').click()
    wait_for(f"the {name} panel", lambda: driver.find_element(By.ID, name).is_displayed())


def shot(name):
    driver.save_screenshot(str(OUT / f"{name}.png"))


def status(panel_status):
    return driver.find_element(By.ID, panel_status).text


def gomoku():
    tab("gomoku")
    size = driver.find_element(By.ID, "gomoku-size")
    size.clear()
    size.send_keys("11")
    Select(driver.find_element(By.ID, "gomoku-rule")).select_by_value("renju")
    Select(driver.find_element(By.ID, "gomoku-time")).select_by_value("200")
    driver.find_element(By.ID, "gomoku-new").click()
    moves = lambda: js("return document.getElementById('gomoku-record').value.split('\\n')[0].split('. ').length - 1")
    over = lambda: any(w in status("gomoku-status") for w in ("wins", "draw"))
    my_turn = lambda: status("gomoku-status").startswith("Your move") or over()
    wait_for("a new 11x11 board", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#gomoku-board .pt")) == 121)
    played = 0
    while True:
        wait_for("the bot's move", my_turn)
        problem_shown("gomoku")
        if over():
            break
        # The player keeps to the edges, so the bot wins in a few moves.
        free = js(
            "return [...document.querySelectorAll('#gomoku-board .pt')]"
            ".filter(c => !c.classList.contains('black') && !c.classList.contains('white')"
            " && !c.classList.contains('forbidden')).map(c => [+c.dataset.x, +c.dataset.y]);"
        )
        edge = [p for p in free if p[1] == 0 or p[0] == 0] or free
        x, y = edge[0]
        before = moves()
        driver.find_element(By.CSS_SELECTOR, f'#gomoku-board .pt[data-x="{x}"][data-y="{y}"]').click()
        wait_for("the player's stone", lambda: moves() > before)
        played += 1
        if played == 2:
            wait_for("the bot's reply", my_turn)
            driver.find_element(By.ID, "gomoku-hint").click()
            wait_for("ranked hints", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#gomoku-candidates li")) >= 1)
            assert driver.find_elements(By.CSS_SELECTOR, "#gomoku-board .pt.hint"), "hints are marked on the board"
            before = moves()
            driver.find_element(By.ID, "gomoku-undo").click()
            wait_for("the undo", lambda: moves() == before - 2 and my_turn())
        assert played < 60, "the game did not end"
    assert "The bot wins" in status("gomoku-status"), status("gomoku-status")
    fives = driver.find_elements(By.CSS_SELECTOR, "#gomoku-board .pt.five")
    assert len(fives) >= 5, f"{len(fives)} stones marked as the five"
    info = driver.find_element(By.ID, "gomoku-info").text
    assert "Expected line" in info and "Depth" in info, info
    shot("gomoku")
    check_console("the gomoku game")


def ddz_state():
    return js(
        "const s = document.getElementById('doudizhu');"
        "return {over: s.dataset.over === 'true',"
        " buttons: [...document.querySelectorAll('#ddz-actions button')].filter(b => !b.disabled).map(b => b.id),"
        " hint: document.getElementById('ddz-hint').textContent,"
        " status: document.getElementById('ddz-status').textContent};"
    )


def click_if_still_there(element_id):
    """Clicks a button read from the page a moment ago; the page may have moved on
    since (a bot's bid re-renders the actions), so a vanished button is no error:
    the loop reads the state again."""
    try:
        driver.find_element(By.ID, element_id).click()
        return True
    except (NoSuchElementException, StaleElementReferenceException):
        return False


def doudizhu():
    tab("doudizhu")
    driver.find_element(By.ID, "ddz-seed").clear()
    driver.find_element(By.ID, "ddz-seed").send_keys("3")
    Select(driver.find_element(By.ID, "ddz-time")).select_by_value("100")
    driver.find_element(By.ID, "ddz-deal").click()
    bid_made = hinted = played = 0
    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, "the deal did not end"
        problem_shown("ddz")
        state = ddz_state()
        if state["over"]:
            break
        buttons = state["buttons"]
        if "ddz-bid-0" in buttons:
            # Bid as high as allowed on the first chance: the player is then the landlord.
            bid_made += click_if_still_there(buttons[-1])
        elif "ddz-stay" in buttons:
            click_if_still_there("ddz-double")
        elif "ddz-hint-button" in buttons:
            driver.find_element(By.ID, "ddz-hint-button").click()
            wait_for("a hint", lambda: ddz_state()["hint"].startswith("Hint:"))
            hinted += 1
            if driver.find_elements(By.CSS_SELECTOR, "#ddz-hint table") and not (OUT / "doudizhu-hint.png").exists():
                shot("doudizhu-hint")
            logged = len(driver.find_elements(By.CSS_SELECTOR, "#ddz-log li"))
            if "Hint: pass" in ddz_state()["hint"]:
                driver.find_element(By.ID, "ddz-pass").click()
            else:
                driver.find_element(By.ID, "ddz-play").click()
                played += 1
            wait_for("the play to be made", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#ddz-log li")) > logged)
            continue
        time.sleep(0.05)
        continue
    final = ddz_state()["status"]
    assert "Deal over" in final, final
    assert played >= 1, "the player played"
    log = [li.get_attribute("textContent") for li in driver.find_elements(By.CSS_SELECTOR, "#ddz-log li")]
    assert any("bid" in line for line in log), log
    assert sum("double" in line for line in log) == 3, log
    assert len(log) >= 10, log
    shot("doudizhu")
    check_console("the Dou Dizhu deal")


def endgame():
    tab("endgame")
    driver.find_element(By.ID, "eg-solve").click()
    verdict = wait_for("the solution", lambda: driver.find_elements(By.CSS_SELECTOR, "#eg-result .verdict"))
    assert "best play" in verdict[0].text, verdict[0].text
    assert len(driver.find_elements(By.CSS_SELECTOR, "#eg-result .line li")) >= 2, "a principal line"
    driver.find_element(By.ID, "eg-random").click()
    driver.find_element(By.ID, "eg-solve").click()
    wait_for("the random puzzle's solution", lambda: driver.find_elements(By.CSS_SELECTOR, "#eg-result .verdict"))
    problem_shown("eg")
    shot("endgame")
    check_console("the endgame puzzles")


def mahjong():
    tab("mahjong")
    rows = lambda: driver.find_elements(By.CSS_SELECTOR, "#mj-result table.candidates tr")
    wait_for("the first analysis", lambda: len(rows()) > 1)
    for variant in ["hong_kong", "red_dragon", "riichi"]:
        Select(driver.find_element(By.ID, "mj-variant")).select_by_value(variant)
        driver.find_element(By.ID, "mj-deal").click()
        wait_for(f"a {variant} analysis", lambda: len(rows()) > 1 and "would" in driver.find_element(By.ID, "mj-result").text)
        problem_shown("mj")
    hand = driver.find_element(By.ID, "mj-hand").get_attribute("value")
    driver.find_elements(By.CSS_SELECTOR, "#mj-tiles .tile-button")[0].click()
    wait_for("a discard and a draw", lambda: driver.find_element(By.ID, "mj-hand").get_attribute("value") != hand)
    wait_for("the new analysis", lambda: len(rows()) > 1)
    problem_shown("mj")
    shot("mahjong")
    check_console("the mahjong analyses")

    # A bad hand: the problem's title and field, not a stack of JSON.
    field = driver.find_element(By.ID, "mj-hand")
    field.clear()
    field.send_keys("123m456p789s11z9x")
    driver.find_element(By.ID, "mj-analyse").click()
    box = wait_for("the problem", lambda: (lambda b: b if b.is_displayed() else None)(driver.find_element(By.ID, "mj-problem")))
    assert "/hand" in box.text and "Invalid request" in box.text, box.text
    assert "{" not in box.text, box.text
    shot("mahjong-problem")
    check_console("the bad hand", allow=("422",))


def riichi():
    tab("riichi")
    seed = driver.find_element(By.ID, "rt-seed")
    seed.clear()
    seed.send_keys("5")
    driver.find_element(By.ID, "rt-new").click()
    section = lambda: driver.find_element(By.ID, "riichi")
    decisions = lambda: int(section().get_attribute("data-decisions") or -1)
    wait_for("a new hand", lambda: decisions() == 0 and driver.find_elements(By.CSS_SELECTOR, "#rt-hand .tile-button"))
    made = 0
    while section().get_attribute("data-over") != "true":
        problem_shown("rt")
        assert made < 150, "the hand did not end"
        # The player follows the bot's advice: the hint marks a tile or a button.
        driver.find_element(By.ID, "rt-hint").click()
        hinted = wait_for("a hint", lambda: driver.find_elements(By.CSS_SELECTOR, "#riichi .hinted"))
        if made == 0:
            shot("riichi-hint")
        before = decisions()
        hinted[0].click()
        made += 1
        wait_for("the table's answer", lambda: decisions() > before)
    final = status("rt-status")
    assert "Hand over" in final, final
    assert "Points:" in driver.find_element(By.ID, "rt-result").text
    shot("riichi")
    check_console("the Riichi hand")


def phone_width():
    driver.set_window_size(390, 900)
    for name in ["gomoku", "doudizhu", "endgame", "mahjong", "riichi"]:
        tab(name)
        time.sleep(0.2)
        wide = js("return document.documentElement.scrollWidth - window.innerWidth;")
        assert wide <= 1, f"the {name} panel is {wide}px wider than a phone screen"
    tab("gomoku")
    shot("phone-gomoku")
    check_console("the phone-width check")


try:
    driver.get(f"{BASE}/playground")
    wait_for("the page's scripts", lambda: js("return document.body.dataset.ready === 'true';"))
    check_console("loading the page")
    for step in [gomoku, doudizhu, endgame, mahjong, riichi, phone_width]:
        started = time.monotonic()
        step()
        print(f"playground: PASS {step.__name__} ({time.monotonic() - started:.1f} s)", flush=True)
except Exception:
    shot("failure")
    raise
finally:
    driver.quit()
