/// The dashboard at `GET /__admin/`: one page, in the binary, with no framework, no CDN and
/// no build step, so it works offline. It follows `GET /__admin/events` with `fetch` (an
/// `EventSource` can't send the token as a header), shows each exchange's details from
/// `GET /__admin/exchanges/{id}`, and steers the server through the admin API.
enum DashboardPage {
    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>RequestMocker</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
        :root { --line: #d8dce2; --muted: #5f6b7a; --bad: #b42318; --good: #067647; --warn: #b54708; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 13px/1.4 -apple-system, system-ui, sans-serif; color: #1d2939; display: grid;
          grid-template-rows: auto 1fr; height: 100vh; }
        header { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 8px 12px;
          border-bottom: 1px solid var(--line); background: #f8f9fb; }
        header h1 { font-size: 15px; margin: 0 12px 0 0; }
        main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); min-height: 0; }
        #left { overflow: auto; border-right: 1px solid var(--line); }
        #right { overflow: auto; padding: 8px 12px; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eef0f3; white-space: nowrap; }
        th { position: sticky; top: 0; background: #fff; font-weight: 600; }
        td.url { max-width: 420px; overflow: hidden; text-overflow: ellipsis; }
        tr.row { cursor: pointer; }
        tr.row:hover { background: #f2f4f7; }
        tr.selected { background: #e0eaff !important; }
        .s2 { color: var(--good); } .s4, .s5, .none { color: var(--bad); } .s3 { color: var(--warn); }
        .muted { color: var(--muted); }
        pre { background: #f8f9fb; border: 1px solid var(--line); padding: 6px; overflow: auto; max-height: 320px;
          white-space: pre-wrap; word-break: break-all; }
        section { margin-bottom: 14px; }
        h2 { font-size: 13px; margin: 10px 0 6px; }
        button, select, input { font: inherit; }
        .miss { border-left: 3px solid var(--bad); padding-left: 8px; margin: 6px 0; }
        #status.off { color: var(--bad); }
        </style></head>
        <body>
        <header>
          <h1>RequestMocker</h1>
          <input id="filter-text" placeholder="Filter by text" size="24">
          <select id="filter-status"><option value="">any status</option><option>2xx</option><option>3xx</option>
            <option>4xx</option><option>5xx</option><option value="none">no status</option></select>
          <select id="filter-source"><option value="">any source</option><option>stub</option><option>file</option>
            <option>cassette</option><option>openapi</option><option>graphql</option><option>upstream</option>
            <option>unmatched</option><option>filter</option><option>refused</option></select>
          <button id="pause">Pause</button>
          <button id="clear">Clear</button>
          <button id="download-har">Download HAR</button>
          <span id="status" class="off">connecting…</span>
          <span id="counts" class="muted"></span>
        </header>
        <main>
          <div id="left"><table id="list"><thead><tr><th>Time</th><th>Method</th><th>URL</th><th>Status</th>
            <th>ms</th><th>Answered by</th></tr></thead><tbody></tbody></table></div>
          <div id="right">
            <section id="details"><p class="muted">Select a request to see its details.</p></section>
            <section><h2>Stubs</h2><div id="stubs"></div></section>
            <section><h2>Scenarios <button id="reset-scenarios">Reset all</button></h2>
              <div id="scenarios"></div></section>
            <section id="resources-section" hidden><h2>Resources <button id="reset-resources">Reset</button></h2>
              <pre id="resources"></pre></section>
            <section id="drift-section" hidden><h2>Drift from the contract</h2><pre id="drift"></pre></section>
          </div>
        </main>
        <script>
        "use strict";
        const $ = (selector) => document.querySelector(selector);
        const kept = 1000;
        let rows = [], paused = false, lastID = null, dropped = 0, selected = null, pending = [];
        // The token lives only in this page, never stored: another page of this origin (a mock
        // that is HTML) can't read it.
        let token = null, followsDrift = true, shownScenarios = null, following = true;

        function text(value) { return value == null ? "" : String(value); }
        function element(tag, properties, children) {
          const node = document.createElement(tag);
          Object.assign(node, properties || {});
          for (const child of children || []) node.append(child);
          return node;
        }

        // Every admin call: the token as a bearer when there is one, JSON when it changes
        // something; asked for once when the server wants one.
        async function call(method, path, body) {
          const headers = {}, used = token;
          if (token) headers["Authorization"] = "Bearer " + token;
          if (method !== "GET") headers["Content-Type"] = "application/json";
          const response = await fetch("/__admin/" + path, {
            method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
          // Calls refused at once all retry with the token asked for once.
          if (response.status === 401 && (token !== used || askToken())) return call(method, path, body);
          return response;
        }
        function askToken() {
          const given = prompt("This server needs its admin token (--admin-token):");
          if (!given) return false;
          token = given;
          return true;
        }

        function statusClass(row) { return row.status == null ? "none" : "s" + String(row.status)[0]; }
        function matches(row) {
          const wanted = $("#filter-text").value.toLowerCase(), status = $("#filter-status").value;
          const source = $("#filter-source").value;
          const shown = status === "none" ? row.status == null : !status || String(row.status).startsWith(status[0]);
          if (!shown) return false;
          if (source && row.source.kind !== source) return false;
          if (!wanted) return true;
          return [row.method, row.url, row.status, row.source.kind, row.source.name, row.ending]
            .some((value) => text(value).toLowerCase().includes(wanted));
        }
        function rowElement(row) {
          const tr = element("tr", { className: "row" });
          tr.dataset.id = row.id;
          tr.dataset.source = row.source.kind;
          const answered = row.source.kind + (row.source.name ? " " + row.source.name : "") +
            (row.drift ? " · drift: " + row.drift : "");
          for (const [value, name] of [[row.time.slice(11, 23)], [row.method], [row.url, "url"],
              [row.status == null ? row.ending : row.status, statusClass(row)], [row.duration.toFixed(1)],
              [answered]]) {
            tr.append(element("td", { textContent: text(value), className: name || "", title: text(value) }));
          }
          tr.hidden = !matches(row);
          if (row.id === selected) tr.classList.add("selected");
          tr.addEventListener("click", () => showDetails(row.id));
          return tr;
        }
        // Rows arrive in bursts (a thousand a second): drawn once a frame, at most `kept` in all.
        function flush() {
          if (paused || pending.length === 0) return;
          const body = $("#list tbody"), fragment = document.createDocumentFragment();
          for (const row of pending.splice(0)) { rows.push(row); fragment.append(rowElement(row)); }
          body.append(fragment);
          while (rows.length > kept) { rows.shift(); body.firstElementChild.remove(); }
          counts();
        }
        function counts() {
          $("#counts").textContent = rows.length + " shown" + (pending.length ? ", " + pending.length + " held" : "") +
            (dropped ? ", " + dropped + " dropped by a slow page" : "");
        }
        function refilter() {
          const byID = new Map(rows.map((row) => [String(row.id), row]));
          for (const tr of $("#list tbody").children) tr.hidden = !matches(byID.get(tr.dataset.id));
        }

        async function follow() {
          while (following) {
            try {
              const headers = {}, used = token;
              if (token) headers["Authorization"] = "Bearer " + token;
              if (lastID != null) headers["Last-Event-ID"] = String(lastID);
              const response = await fetch("/__admin/events", { headers });
              if (response.status === 401) { if (token === used && !askToken()) return; continue; }
              if (!response.ok) throw new Error("events: " + response.status);
              $("#status").textContent = "live";
              $("#status").className = "";
              const reader = response.body.getReader(), decoder = new TextDecoder();
              let buffer = "";
              for (;;) {
                const { value, done } = await reader.read();
                if (done) break;
                buffer += decoder.decode(value, { stream: true });
                let end;
                while ((end = buffer.indexOf("\\n\\n")) >= 0) {
                  event(buffer.slice(0, end));
                  buffer = buffer.slice(end + 2);
                }
              }
            } catch (error) { /* the server went away: try again shortly */ }
            if (!following) return;
            $("#status").textContent = "reconnecting…";
            $("#status").className = "off";
            await new Promise((resolve) => setTimeout(resolve, 1000));
          }
        }
        function event(block) {
          let name = "message", data = "";
          for (const line of block.split("\\n")) {
            if (line.startsWith("event: ")) name = line.slice(7);
            else if (line.startsWith("data: ")) data += line.slice(6);
            else if (line.startsWith("id: ")) lastID = Number(line.slice(4));
          }
          if (name === "exchange") {
            pending.push(JSON.parse(data));
            // Paused, or in a background tab, the page holds the newest `kept` at most.
            if (pending.length > kept) dropped += pending.splice(0, pending.length - kept).length;
          } else if (name === "dropped") { dropped += JSON.parse(data).dropped; counts(); }
          else if (name === "ended") {
            following = false;
            $("#status").textContent = "closed: " + JSON.parse(data).reason;
          }
        }

        function body(part) {
          if (!part) return element("p", { className: "muted", textContent: "no body" });
          const shown = part.json ?? part.text;
          const size = part.size + " bytes" + (part.shown < part.size ? ", the first " + part.shown + " shown" : "");
          if (shown == null) return element("p", { className: "muted", textContent: "binary, " + size });
          return element("div", {}, [element("p", { className: "muted", textContent: size }),
            element("pre", { textContent: shown })]);
        }
        function headers(list) {
          return element("pre", { textContent: list.map((field) => field.name + ": " + field.value).join("\\n") });
        }
        async function showDetails(id) {
          selected = id;
          for (const tr of document.querySelectorAll("#list tr.selected")) tr.classList.remove("selected");
          document.querySelector('#list tr[data-id="' + id + '"]')?.classList.add("selected");
          const response = await call("GET", "exchanges/" + id);
          const section = $("#details");
          if (!response.ok) {
            section.replaceChildren(element("p", { textContent: (await response.json()).error }));
            return;
          }
          const exchange = await response.json();
          if (selected !== id) return;  // another row was chosen meanwhile
          const parts = [element("h2", { textContent: exchange.method + " " + exchange.url })];
          parts.push(element("p", { id: "answered-by", textContent: "Answered by " + exchange.source.kind +
            (exchange.source.name ? " " + exchange.source.name : "") + ", " +
            (exchange.status ?? exchange.ending) + ", " + exchange.duration.toFixed(1) + " ms" }));
          const actions = element("p");
          if (exchange.curl) {
            actions.append(element("button", { id: "copy-curl", textContent: "Copy as curl", onclick: async () => {
              await navigator.clipboard?.writeText(exchange.curl).catch(() => {});
              $("#curl").hidden = false; } }));
          }
          if (exchange.response) {
            actions.append(" ", element("button", { id: "mock-stub", textContent: "Mock this (stub)",
              onclick: () => mockThis(id, "stub") }));
            actions.append(" ", element("button", { id: "mock-file", textContent: "Mock this (file)",
              onclick: () => mockThis(id, "file") }));
          }
          parts.push(actions, element("pre", { id: "curl", hidden: true, textContent: exchange.curl || "" }));
          parts.push(element("p", { id: "mock-result", className: "muted" }));
          if (exchange.nearest) {
            const nearest = element("div", { id: "nearest" }, [element("h2", { textContent:
              "Nothing matched: the nearest of " + exchange.nearest.filterCount + " stubs" })]);
            for (const stub of exchange.nearest.stubs) {
              nearest.append(element("div", { className: "miss" }, [element("strong", { textContent: stub.filter }),
                element("ul", {}, stub.differences.map((difference) => element("li", { textContent: difference })))]));
            }
            for (const note of exchange.nearest.notes) nearest.append(element("p", { textContent: note }));
            parts.push(nearest);
          }
          if (exchange.drift?.length) {
            parts.push(element("h2", { textContent: "Drift" }), element("ul", {}, exchange.drift.map((finding) =>
              element("li", { textContent: finding.severity + ": " + finding.message }))));
          }
          if (exchange.request) {
            parts.push(element("h2", { textContent: "Request" }), headers(exchange.request.headers),
              body(exchange.request.body));
          }
          if (exchange.response) {
            parts.push(element("h2", { textContent: "Response " + exchange.response.status }),
              headers(exchange.response.headers), body(exchange.response.body));
          }
          section.replaceChildren(...parts);
          section.dataset.shown = String(id);
        }
        async function mockThis(id, kind) {
          const response = await call("POST", "exchanges/" + id + "/mock", { as: kind });
          const answer = await response.json();
          $("#mock-result").textContent = response.ok
            ? (answer.file ? "Written to " + answer.file : "Added as stub " + answer.id) : answer.error;
          loadStubs();
        }

        async function loadStubs() {
          const response = await call("GET", "stubs");
          if (!response.ok) return;
          const list = element("table", {}, [element("tr", {}, ["On", "Id", "Request", "From"].map((name) =>
            element("th", { textContent: name })))]);
          for (const stub of (await response.json()).stubs) {
            const box = element("input", { type: "checkbox", checked: stub.enabled, className: "stub-toggle" });
            box.dataset.id = stub.id;
            box.addEventListener("change", async () => {
              const answer = await call("PATCH", "stubs/" + encodeURIComponent(stub.id), { enabled: box.checked });
              if (!answer.ok) box.checked = !box.checked;
            });
            const request = stub.request || {};
            list.append(element("tr", {}, [element("td", {}, [box]), element("td", { textContent: stub.id }),
              element("td", { textContent: (request.method || "ANY") + " " + (request.path || "/**") }),
              element("td", { textContent: stub.source, className: "muted" })]));
          }
          $("#stubs").replaceChildren(list);
        }
        async function loadScenarios() {
          const response = await call("GET", "scenarios");
          if (!response.ok) return;
          const text = await response.text();
          // Redrawn only when something changed, so a list being chosen from stays open.
          if (text === shownScenarios) return;
          shownScenarios = text;
          const scenarios = JSON.parse(text).scenarios;
          const parts = scenarios.length ? []
            : [element("p", { className: "muted", textContent: "No stub names a scenario." })];
          for (const scenario of scenarios) {
            const select = element("select", { className: "scenario-state" },
              scenario.states.map((state) => element("option", { value: state, textContent: state,
                selected: state === scenario.state })));
            select.dataset.name = scenario.name;
            select.addEventListener("change", async () => {
              await call("PUT", "scenarios/" + encodeURIComponent(scenario.name) + "/state", { state: select.value });
              loadScenarios();
            });
            parts.push(element("p", {}, [scenario.name + ": ", select]));
          }
          $("#scenarios").replaceChildren(...parts);
        }
        async function loadResources() {
          const response = await call("GET", "resources");
          const shown = response.ok && (await response.text()).trim();
          $("#resources-section").hidden = !shown || shown === "{}";
          if (shown) $("#resources").textContent = shown;
          if (!followsDrift) return;
          const drift = await call("GET", "drift");
          // 404: nothing checks an upstream (no --upstream-first), now or later.
          if (drift.status === 404) followsDrift = false;
          $("#drift-section").hidden = !drift.ok;
          if (drift.ok) {
            const report = await drift.json();
            $("#drift").textContent = report.findings.map((finding) => finding.severity + ": " + finding.message +
              " (" + finding.count + ")").join("\\n") + "\\n" + JSON.stringify(report.coverage, null, 1);
          }
        }
        async function download() {
          const response = await call("GET", "exchanges.har");
          if (!response.ok) { $("#status").textContent = (await response.json()).error; return; }
          const href = URL.createObjectURL(await response.blob());
          element("a", { href, download: "requestmocker-session.har" }).click();
          setTimeout(() => URL.revokeObjectURL(href), 10000);
        }

        $("#pause").addEventListener("click", () => {
          paused = !paused;
          $("#pause").textContent = paused ? "Resume" : "Pause";
          flush();
        });
        $("#clear").addEventListener("click", () => { rows = []; $("#list tbody").replaceChildren(); counts(); });
        $("#download-har").addEventListener("click", download);
        $("#reset-scenarios").addEventListener("click", async () => { await call("POST", "scenarios/reset");
          loadScenarios(); });
        $("#reset-resources").addEventListener("click", async () => { await call("POST", "resources/reset");
          loadResources(); });
        for (const control of ["#filter-text", "#filter-status", "#filter-source"]) {
          $(control).addEventListener("input", refilter);
        }
        // A timer, not animation frames, which stop in a background tab.
        setInterval(flush, 100);
        setInterval(() => { loadScenarios(); loadResources(); }, 3000);
        loadStubs(); loadScenarios(); loadResources(); follow();
        </script>
        </body></html>
        """
}
