"""Drives the dashboard of `request-mocker serve --admin` in headless Chromium, as a developer
would, and prints what it saw as one JSON object for the Swift test to check.

Usage: python3 dashboard_browser.py BASE_URL [SCREENSHOT.png | --token TOKEN]

The server serves a folder with GET|-hello.http and a stubs file with the stub "greeting"
(GET /greeting) and the scenario "checkout" (POST /pay moves it from Started to Paid). Every
wait is bounded (20 s); a step that doesn't happen fails with what the page showed.
"""
import http.client
import json
import shutil
import sys
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

base = sys.argv[1]
token = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--token" else None
screenshot = sys.argv[2] if len(sys.argv) > 2 and not token else None
address = urllib.parse.urlsplit(base)


def request(method, path, headers=None, body=None):
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=20)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def admin(method, path, body=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    status, text = request(method, "/__admin/" + path, headers, None if body is None else json.dumps(body))
    return status, json.loads(text)


def with_token(driver, wait):
    """The page asks for the token once, however many of its calls were refused, keeps it only in
    the page (not in storage another page of the origin could read), and never puts it in a URL."""
    driver.get(base + "/__admin/")
    wait.until(expected_conditions.alert_is_present(), "the page to ask for the token")
    alert = driver.switch_to.alert
    seen["asked"] = alert.text
    alert.send_keys(token)
    alert.accept()
    wait.until(lambda d: d.find_element(By.ID, "status").text == "live", "the event stream")
    seen["greeting"] = request("GET", "/greeting")
    wait.until(lambda d: "/greeting" in d.find_element(By.ID, "list").text, "the request listed")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".stub-toggle"), "the stubs listed")
    seen["stubsListed"] = len(driver.find_elements(By.CSS_SELECTOR, ".stub-toggle"))
    try:
        driver.switch_to.alert
        seen["askedAgain"] = True
    except NoAlertPresentException:
        seen["askedAgain"] = False
    seen["stored"] = driver.execute_script("return sessionStorage.length + localStorage.length + document.cookie.length")
    seen["urlsWithToken"] = [url for url in driver.execute_script(
        "return performance.getEntriesByType('resource').map(entry => entry.name)") if token in url]


options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1400,860", "--no-first-run", "--disable-extensions"]:
    options.add_argument(argument)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
seen = {}
try:
    # The page redraws parts of itself (new rows, the scenarios every 3 s): an element found just
    # before a redraw is looked for again.
    wait = WebDriverWait(driver, 20, ignored_exceptions=[StaleElementReferenceException])

    def rows_for(path):
        ids = driver.execute_script(
            "return [...document.querySelectorAll('#list tbody tr')]"
            ".filter(row => row.querySelector('td.url').title.endsWith(arguments[0])).map(row => row.dataset.id)",
            path)
        return [driver.find_element(By.CSS_SELECTOR, f'#list tbody tr[data-id="{id}"]') for id in ids]

    def nth_row(path, count):
        """Waits until `count` rows for `path` are listed; returns the last."""
        wait.until(lambda _: len(rows_for(path)) >= count, f"{count} rows for {path}")
        return rows_for(path)[count - 1]

    def details_of(row):
        row.click()
        wait.until(lambda d: row.get_attribute("data-id") in
                   d.find_element(By.ID, "details").get_attribute("data-shown") or "", "the details")
        return driver.find_element(By.ID, "answered-by").text

    if token:
        with_token(driver, wait)
        raise SystemExit
    driver.get(base + "/__admin/")
    wait.until(lambda d: d.find_element(By.ID, "status").text == "live", "the event stream")

    # A request appears without a reload; its details say what answered it.
    seen["greeting"] = request("GET", "/greeting")
    first = nth_row("/greeting", 1)
    seen["answeredBy"] = details_of(first).split(",")[0]
    driver.find_element(By.ID, "copy-curl").click()
    seen["curl"] = driver.find_element(By.ID, "curl").text

    # Turned off, the stub no longer answers: the next request is unmatched, with its nearest misses.
    toggle = driver.find_element(By.CSS_SELECTOR, '.stub-toggle[data-id="greeting"]')
    toggle.click()
    wait.until(lambda _: any(stub["id"] == "greeting" and not stub["enabled"]
                             for stub in admin("GET", "stubs")[1]["stubs"]), "the stub turned off")
    seen["afterOff"] = request("GET", "/greeting")[0]
    seen["answeredByAfterOff"] = details_of(nth_row("/greeting", 2)).split(",")[0]
    nearest = driver.find_element(By.ID, "nearest")
    seen["nearest"] = [miss.text.split("\n") for miss in nearest.find_elements(By.CSS_SELECTOR, ".miss")]

    # A logged exchange mocked as a stub answers the next request.
    request("GET", "/hello")
    seen["helloAnsweredBy"] = details_of(nth_row("/hello", 1)).split(",")[0]
    driver.find_element(By.ID, "mock-stub").click()
    wait.until(lambda d: d.find_element(By.ID, "mock-result").text != "", "mock this")
    seen["mocked"] = driver.find_element(By.ID, "mock-result").text
    request("GET", "/hello")
    seen["helloAgainAnsweredBy"] = details_of(nth_row("/hello", 2)).split(",")[0]

    # A scenario moved by a request, shown, and reset from the page.
    seen["pay"] = request("POST", "/pay")[0]
    state = lambda d: d.execute_script(
        "return document.querySelector('select.scenario-state[data-name=\"checkout\"]')?.value")
    wait.until(lambda d: state(d) == "Paid", "the scenario shown in Paid")
    seen["scenarioBefore"] = state(driver)
    driver.find_element(By.ID, "reset-scenarios").click()
    wait.until(lambda d: state(d) == "Started", "the scenario shown in Started")
    seen["scenarioAfter"] = admin("GET", "scenarios")[1]["scenarios"][0]["state"]
    seen["order"] = request("GET", "/order")[1]

    if screenshot:
        details_of(nth_row("/greeting", 2))
        driver.save_screenshot(screenshot)

    # A burst of 2,000 requests: the page keeps the last 1,000 rows and stays live.
    burst = http.client.HTTPConnection(address.hostname, address.port, timeout=20)
    for n in range(2000):
        burst.request("GET", f"/hello?n={n}")
        burst.getresponse().read()
    burst.close()
    nth_row("/hello?n=1999", 1)
    seen["burstRows"] = driver.execute_script("return document.querySelectorAll('#list tbody tr').length")
    # How many a burst drops (the server sends a page at most 2,500 a second) depends on its pace.
    seen["burstCounts"] = driver.find_element(By.ID, "counts").text.split(",")[0]
    # The page asks once whether an upstream's drift is followed; a server without one says 404.
    expected = "/__admin/drift - Failed to load resource: the server responded with a status of 404"
    seen["consoleErrors"] = [entry["message"] for entry in driver.get_log("browser")
                             if entry["level"] == "SEVERE" and expected not in entry["message"]]
except Exception as error:
    seen["failed"] = f"{type(error).__name__}: {error}"
    seen["page"] = driver.find_element(By.TAG_NAME, "body").text[:3000]
finally:
    driver.quit()
    print(json.dumps(seen, sort_keys=True))
