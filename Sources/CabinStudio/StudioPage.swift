/// The studio's page: static HTML, CSS and JavaScript. It holds no value from a pattern;
/// those come as JSON from `events` (server-sent events) and go into the document with
/// `textContent` and canvas drawing only, never as markup (and the server's
/// Content-Security-Policy runs no other script).
///
/// What it shows, per pattern, on one time axis shared by all (A/B): the sound's waveform
/// (grey), intensity (blue line over a light fill), sharpness (dashed orange, where the
/// continuous track sounds: as `haptics plot` draws it), transients (red stems at their
/// intensity); a playhead while its sound plays; the diagnostics, each `line:column` a
/// button that shows and highlights that place in the source. Zoom with the slider or the
/// mouse wheel (around the pointer), pan with shift+wheel or the pan slider; `loop` plays
/// the sound again and again. `play on rumble pad` and `play on DualSense` send the pattern to
/// this machine's devices (`POST play/N/KIND`, from `devices.json`), disabled with the reason
/// when there is none. `compare with` draws another pattern's intensity, sharpness and
/// transients (purple) over this one's lane, on the same axis (A/B overlay), redrawn when
/// either is saved. A session opened with the patterns shows its lanes above them, as
/// `session plot` draws them, and when it plays here its transport (play, pause, stop, a
/// time to go to, a click on the lanes to seek), a volume slider (dB) and mute per bus, a
/// master mute, the position and a playhead over the lanes: each a control-socket request
/// (`POST control`), the playhead and position from `player.json` 5 times a second.
/// What it drew is in each section's data attributes
/// (`data-generation`, `data-transients-drawn`, …) for tests and tools.
enum StudioPage {
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Cabin studio</title>
        <link rel="stylesheet" href="studio.css">
        </head>
        <body>
        <header>
          <h1>Cabin studio</h1>
          <label>zoom <input id="zoom" type="range" min="0" max="6" step="0.01" value="0"></label>
          <label>pan <input id="pan" type="range" min="0" max="1" step="0.001" value="0"></label>
          <button id="fit" type="button">fit</button>
          <label><input id="loop" type="checkbox"> loop</label>
          <span id="axis"></span>
          <span id="status" data-connected="false">connecting…</span>
        </header>
        <p class="legend"><span class="k-intensity">intensity</span> <span class="k-sharpness">sharpness</span> <span class="k-transient">transient</span> <span class="k-sound">sound</span> <span class="k-playhead">playhead</span> <span class="k-compare">compared pattern (B)</span></p>
        <section id="session" hidden><h2>session: <span class="title"></span></h2>
          <div class="transport" hidden>
            <button class="play" type="button">▶ play</button> <button class="pause" type="button">⏸ pause</button>
            <button class="stop" type="button">■ stop</button>
            <span class="position">0:00</span> / <span class="duration">0:00</span> <span class="state"></span>
            <label>go to <input class="seek" type="text" size="8" placeholder="1m30s"></label>
            <label><input class="mute" type="checkbox"> mute</label>
            <span class="player-message"></span>
          </div>
          <div class="buses" hidden></div>
          <div class="lanes"><div class="playhead" hidden></div></div>
        </section>
        <main id="patterns"></main>
        <template id="pattern-template">
          <section class="pattern">
            <h2><button class="play" type="button">▶ play</button> <span class="name"></span> <span class="summary"></span>
              <label class="compare">compare with <select class="compare"><option value="">nothing</option></select></label></h2>
            <p class="message"></p>
            <p class="devices"><button class="device" type="button" data-kind="rumble">play on rumble pad</button> <small class="why"></small>
              <button class="device" type="button" data-kind="dualsense">play on DualSense</button> <small class="why"></small>
              <span class="device-message"></span></p>
            <canvas class="timeline"></canvas>
            <audio class="sound" preload="auto"></audio>
            <ol class="diagnostics"></ol>
            <details class="source"><summary>source</summary><pre class="lines"></pre></details>
          </section>
        </template>
        <script src="studio.js"></script>
        </body>
        </html>

        """

    static let style = """
        body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
        header { position: sticky; top: 0; z-index: 1; display: flex; gap: 1em; align-items: center; flex-wrap: wrap;
                 padding: 0.5em 1em; background: #fff; border-bottom: 1px solid #ddd; }
        header h1 { font-size: 1.1em; margin: 0 1em 0 0; }
        #status[data-connected="false"] { color: #b00; }
        #axis { color: #555; }
        .legend { margin: 0.3em 1em; color: #555; font-size: 0.9em; }
        .legend span::before { content: ""; display: inline-block; width: 1.5em; height: 0; margin-right: 0.3em; vertical-align: middle; }
        .k-intensity::before { border-top: 2px solid #1f77b4; }
        .k-sharpness::before { border-top: 2px dashed #ff7f0e; }
        .k-transient::before { border-top: 2px solid #d62728; }
        .k-sound::before { border-top: 6px solid #d0d0d0; }
        .k-playhead::before { border-top: 2px solid #2ca02c; }
        .k-compare::before { border-top: 2px solid #9467bd; }
        section.pattern h2 label.compare { font-weight: normal; font-size: 0.9em; color: #555; margin-left: 1em; }
        main { padding: 0 1em 2em; }
        #session { background: #fff; border: 1px solid #ddd; border-radius: 4px; margin: 0.8em 1em; padding: 0.5em 0.8em; }
        #session h2 { font-size: 1em; margin: 0.2em 0; }
        #session img.lanes { display: block; max-width: 100%; height: auto; }
        #session div.lanes { position: relative; display: inline-block; max-width: 100%; }
        #session[data-playing] img.lanes { cursor: crosshair; }
        #session div.playhead { position: absolute; top: 0; bottom: 0; width: 0; border-left: 2px solid #2ca02c; pointer-events: none; }
        #session .transport, #session .buses { margin: 0.3em 0; font-size: 0.9em; }
        #session .buses label { margin-right: 1.2em; white-space: nowrap; }
        #session .buses input[type=range] { width: 8em; vertical-align: middle; }
        #session .player-message { color: #b00; margin-left: 1em; }
        section.pattern { background: #fff; border: 1px solid #ddd; border-radius: 4px; margin: 0.8em 0; padding: 0.5em 0.8em; }
        section.pattern h2 { font-size: 1em; margin: 0.2em 0; }
        section.pattern .summary { font-weight: normal; color: #555; }
        section.pattern .message { margin: 0.2em 0; color: #555; }
        section.pattern[data-status="errors"] .message, section.pattern[data-status="unreadable"] .message,
        section.pattern[data-status="sound-errors"] .message, section.pattern[data-status="missing"] .message { color: #b00; }
        canvas.timeline { width: 100%; height: 200px; display: block; cursor: crosshair; }
        p.devices { margin: 0.2em 0; font-size: 0.9em; }
        p.devices small.why { color: #777; }
        p.devices .device-message { color: #2a6a2a; margin-left: 1em; }
        section.pattern[data-device-state="refused"] p.devices .device-message { color: #b00; }
        ol.diagnostics { margin: 0.3em 0; padding-left: 1.5em; font-family: ui-monospace, monospace; font-size: 0.9em; }
        ol.diagnostics li.error { color: #b00; }
        ol.diagnostics li.warning { color: #8a5a00; }
        ol.diagnostics button { font: inherit; color: inherit; background: none; border: none; padding: 0; text-decoration: underline; cursor: pointer; }
        pre.lines { max-height: 20em; overflow: auto; background: #f4f4f4; padding: 0.3em; margin: 0.3em 0; }
        pre.lines span { display: block; white-space: pre; }
        pre.lines span::before { content: attr(data-line); display: inline-block; width: 3.5em; color: #999; }
        pre.lines span.highlight { background: #ffe08a; }

        """

    static let script = #"""
        "use strict";
        // Cabin studio: draws each pattern the server sends (events: server-sent events).
        const rows = new Map();          // index -> { section, pattern, audio, canvas }
        const view = { zoom: 1, start: 0 };   // shared by every row: one time axis (A/B)
        const main = document.getElementById("patterns");
        const template = document.getElementById("pattern-template");
        const status = document.getElementById("status");
        const zoomInput = document.getElementById("zoom");
        const panInput = document.getElementById("pan");
        const loopInput = document.getElementById("loop");

        function span() {
          let end = 0;
          for (const row of rows.values()) {
            const t = row.pattern && row.pattern.timeline;
            if (t) end = Math.max(end, t.endTime, t.audio ? t.audio.seconds : 0);
          }
          return end > 0 ? end : 1;
        }
        function visible() {
          const total = span(), width = total / view.zoom;
          const start = Math.min(Math.max(0, view.start), Math.max(0, total - width));
          return { start, end: start + width, total };
        }
        function seconds(t) { return (Math.round(t * 1000) / 1000) + " s"; }

        function rowFor(index) {
          let row = rows.get(index);
          if (row) return row;
          const section = template.content.firstElementChild.cloneNode(true);
          section.dataset.index = String(index);
          row = { section, pattern: null, audio: section.querySelector("audio"), canvas: section.querySelector("canvas") };
          rows.set(index, row);
          // Keep the rows in the order of the command line.
          const after = [...main.children].find(s => Number(s.dataset.index) > index);
          main.insertBefore(section, after || null);
          section.querySelector("button.play").addEventListener("click", () => toggle(row));
          for (const button of section.querySelectorAll("button.device")) button.addEventListener("click", () => playOn(row, button.dataset.kind));
          row.compare = null;
          section.querySelector("select.compare").addEventListener("change", event => {
            row.compare = event.target.value === "" ? null : Number(event.target.value);
            draw(row);
          });
          row.audio.loop = loopInput.checked;
          row.audio.addEventListener("play", () => { section.dataset.playing = "true"; animate(); });
          row.audio.addEventListener("pause", () => { section.dataset.playing = "false"; draw(row); });
          row.audio.addEventListener("ended", () => { section.dataset.playing = "false"; draw(row); });
          row.audio.addEventListener("loadedmetadata", () => { section.dataset.audioSeconds = String(row.audio.duration); });
          row.canvas.addEventListener("wheel", event => wheel(event, row), { passive: false });
          row.canvas.addEventListener("click", event => seek(event, row));
          return row;
        }

        function toggle(row) {
          if (!row.audio.src) return;
          if (row.audio.paused) {
            for (const other of rows.values()) if (other !== row && !other.audio.paused) other.audio.pause();
            row.audio.play().catch(error => { row.section.dataset.playError = String(error); });
          } else {
            row.audio.pause();
          }
        }

        function seek(event, row) {
          if (!row.audio.src) return;
          const rect = row.canvas.getBoundingClientRect(), v = visible();
          const t = v.start + (event.clientX - rect.left - 40) / (rect.width - 50) * (v.end - v.start);
          row.audio.currentTime = Math.max(0, t);
          draw(row);
        }

        function wheel(event, row) {
          event.preventDefault();
          const v = visible();
          if (event.shiftKey) {
            view.start = v.start + Math.sign(event.deltaY || event.deltaX) * (v.end - v.start) * 0.1;
          } else {
            const rect = row.canvas.getBoundingClientRect();
            const fraction = Math.min(1, Math.max(0, (event.clientX - rect.left - 40) / (rect.width - 50)));
            const at = v.start + fraction * (v.end - v.start);
            view.zoom = Math.min(64, Math.max(1, view.zoom * (event.deltaY < 0 ? 1.25 : 0.8)));
            view.start = at - fraction * (v.total / view.zoom);
          }
          syncInputs();
          drawAll();
        }

        function syncInputs() {
          const v = visible();
          view.start = v.start;
          zoomInput.value = String(Math.log2(view.zoom));
          panInput.value = String(v.total - (v.end - v.start) > 0 ? v.start / (v.total - (v.end - v.start)) : 0);
          document.getElementById("axis").textContent = seconds(v.start) + " – " + seconds(v.end);
        }

        zoomInput.addEventListener("input", () => {
          const v = visible(), middle = (v.start + v.end) / 2;
          view.zoom = Math.pow(2, Number(zoomInput.value));
          view.start = middle - v.total / view.zoom / 2;
          syncInputs(); drawAll();
        });
        panInput.addEventListener("input", () => {
          const v = visible();
          view.start = Number(panInput.value) * (v.total - (v.end - v.start));
          syncInputs(); drawAll();
        });
        document.getElementById("fit").addEventListener("click", () => { view.zoom = 1; view.start = 0; syncInputs(); drawAll(); });
        loopInput.addEventListener("change", () => { for (const row of rows.values()) row.audio.loop = loopInput.checked; });

        function show(pattern) {
          const row = rowFor(pattern.index), section = row.section, old = row.pattern;
          row.pattern = pattern;
          section.dataset.generation = String(pattern.generation);
          section.dataset.status = pattern.status;
          section.querySelector(".name").textContent = pattern.name;
          const timeline = pattern.timeline;
          section.querySelector(".summary").textContent = timeline ? timeline.summary : "";
          section.dataset.timelineGeneration = timeline ? String(timeline.generation) : "";
          let message = "";
          const errors = pattern.diagnostics.filter(d => d.severity === "error").length;
          const warnings = pattern.diagnostics.length - errors;
          const kept = timeline ? "; the version read at " + timeline.readAt + " is shown" : "";
          if (pattern.status === "errors") message = "not loaded (" + errors + (errors === 1 ? " error" : " errors") + ")" + kept;
          else if (pattern.status === "sound-errors") message = "its sound has errors: not played";
          else if (pattern.status === "unreadable") message = pattern.failure + kept;
          else if (pattern.status === "missing") message = "not there; waiting for it" + kept;
          else if (warnings > 0) message = warnings + (warnings === 1 ? " warning" : " warnings");
          section.querySelector(".message").textContent = message;
          showDiagnostics(row);
          showSource(row);
          // A new sound: load it; if the old one was playing, play the new one from its start.
          const url = timeline && timeline.audio ? timeline.audio.url : "";
          const oldUrl = old && old.timeline && old.timeline.audio ? old.timeline.audio.url : "";
          if (url !== oldUrl) {
            const wasPlaying = !row.audio.paused;
            if (url) row.audio.src = url; else { row.audio.removeAttribute("src"); row.audio.load(); }
            if (url && wasPlaying) row.audio.play().catch(() => {});
          }
          section.querySelector("button.play").disabled = !url;
          showDevices(row);
          showCompareChoices();
          syncInputs();
          drawAll();
          section.dataset.updatedAt = String(performance.timeOrigin + performance.now());
        }

        // A session's lanes (session.json, session.svg: cabin session plot's picture), if one was opened.
        fetch("session.json").then(response => response.json()).then(session => {
          if (!session) return;
          // The picture's <img> only when there is a session: the page has no image otherwise.
          const section = document.getElementById("session"), img = document.createElement("img");
          img.className = "lanes";
          img.alt = "the session's lanes, as cabin session plot draws them";
          section.querySelector("div.lanes").prepend(img);
          section.querySelector(".title").textContent = session.title;
          img.addEventListener("load", () => { section.dataset.loaded = "true"; section.dataset.width = String(img.naturalWidth); });
          img.src = session.svg;
          section.hidden = false;
          if (session.player) startPlayer(section, img, session);
        }).catch(() => {});

        // The session playing on this machine: every press is a control-socket request
        // (POST control: {"command": [...]}, answered as cabin ctl's socket answers it), and
        // player.json (cabin ctl status --json) is read 5 times a second for the playhead,
        // the position and the volumes. The playhead is at session plot's x of the position:
        // timeline.x + t / timeline.duration × timeline.width, in the picture's pixels.
        function startPlayer(section, img, session) {
          const t = session.timeline, playhead = section.querySelector("div.playhead");
          const message = section.querySelector(".player-message"), buses = section.querySelector("div.buses");
          section.querySelector("div.transport").hidden = false;
          section.dataset.playing = "";
          let last = null;
          const clock = s => { const m = Math.floor(s / 60), r = s - 60 * m; return m + ":" + (r < 10 ? "0" : "") + r.toFixed(1); };
          async function send(command) {
            try {
              const response = await fetch("control", { method: "POST", body: JSON.stringify({ command }) });
              const reply = await response.json();
              message.textContent = reply.error === "success" ? "" : reply.error;
              section.dataset.lastReply = reply.error;
            } catch (error) {
              message.textContent = "not sent: " + error;
            }
            poll();
          }
          const sliders = new Map();
          for (const bus of session.player.buses) {
            const label = document.createElement("label"), name = document.createElement("span");
            const slider = document.createElement("input"), value = document.createElement("span");
            const mute = document.createElement("input"), muteLabel = document.createElement("span");
            name.textContent = bus + " ";
            slider.type = "range"; slider.min = "-60"; slider.max = "6"; slider.step = "0.5"; slider.value = "0";
            slider.dataset.bus = bus;
            value.className = "db"; value.textContent = " 0 dB ";
            mute.type = "checkbox"; mute.className = "bus-mute"; mute.dataset.bus = bus;
            muteLabel.textContent = " mute";
            const level = () => mute.checked ? "-inf dB" : slider.value + "dB";
            slider.addEventListener("input", () => { value.textContent = " " + slider.value + " dB "; });
            slider.addEventListener("change", () => send(["volume", bus, level()]));
            mute.addEventListener("change", () => send(["volume", bus, level()]));
            label.append(name, slider, value, mute, muteLabel);
            buses.append(label);
            sliders.set(bus, { slider, value, mute });
          }
          buses.hidden = session.player.buses.length === 0;
          section.querySelector("button.play").addEventListener("click", () => send(["resume"]));
          section.querySelector("button.pause").addEventListener("click", () => send(["pause"]));
          section.querySelector("button.stop").addEventListener("click", () => send(["stop"]));
          const master = section.querySelector("input.mute");
          master.addEventListener("change", () => send(["mute", master.checked ? "on" : "off"]));
          const seek = section.querySelector("input.seek");
          seek.addEventListener("change", () => { if (seek.value.trim() !== "") send(["seek", seek.value.trim(), "absolute"]); });
          // A click on the lanes: the time at that x, as session plot maps it.
          img.addEventListener("click", event => {
            const x = event.offsetX / img.clientWidth * session.width;
            const seconds = Math.min(Math.max((x - t.x) / t.width, 0), 1) * t.duration;
            send(["seek", Math.round(seconds * 1000) / 1000, "absolute"]);
          });
          function show(status) {
            last = status;
            const position = Math.min(Math.max(status.position, 0), t.duration);
            const x = t.x + position / t.duration * t.width;
            playhead.hidden = !img.clientWidth;
            playhead.style.left = (x / session.width * img.clientWidth) + "px";
            Object.assign(section.dataset, { position: String(status.position), state: status.state, playheadX: String(x) });
            section.querySelector(".position").textContent = clock(status.position);
            section.querySelector(".duration").textContent = clock(status.duration);
            section.querySelector(".state").textContent = status.state;
            if (document.activeElement !== master) master.checked = !!status.volume.muted;
            for (const [bus, s] of sliders) {
              const db = status.volume.buses[bus];   // null: -inf (muted)
              s.mute.checked = db === null;
              if (db !== null && document.activeElement !== s.slider) { s.slider.value = String(db); s.value.textContent = " " + db + " dB "; }
            }
          }
          let polling = false;
          async function poll() {
            if (polling) return;
            polling = true;
            try { show(await (await fetch("player.json")).json()); } catch (error) {} finally { polling = false; }
          }
          setInterval(poll, 200);
          window.addEventListener("resize", () => { if (last) show(last); });
          poll();
        }

        // This machine's rumble pad and DualSense (devices.json): each a device, or why none.
        let devices = null;
        fetch("devices.json").then(response => response.json()).then(value => {
          devices = value;
          for (const row of rows.values()) showDevices(row);
        }).catch(() => {});

        function showDevices(row) {
          const loaded = !!(row.pattern && row.pattern.timeline);
          for (const button of row.section.querySelectorAll("button.device")) {
            const target = devices ? devices[button.dataset.kind] : null;
            const why = button.nextElementSibling;
            if (target) button.textContent = target.label;
            button.disabled = !target || !target.available || !loaded || row.section.dataset.deviceState === "playing";
            button.title = target ? target.detail : "";
            why.textContent = target && !target.available ? "(" + target.detail + ")" : "";
            button.dataset.available = target ? String(target.available) : "";
          }
        }

        async function playOn(row, kind) {
          if (!row.pattern) return;
          const message = row.section.querySelector(".device-message");
          row.section.dataset.deviceState = "playing";
          message.textContent = "playing…";
          showDevices(row);
          let state = "refused";
          try {
            const response = await fetch("play/" + row.pattern.index + "/" + kind, { method: "POST" });
            const result = await response.json();
            message.textContent = result.message;
            if (result.played) state = "played";
          } catch (error) {
            message.textContent = "not played: " + error;
          }
          row.section.dataset.deviceState = state;
          showDevices(row);
        }

        // Each row's "compare with" list: every other pattern, by its name (as text).
        function showCompareChoices() {
          for (const row of rows.values()) {
            const select = row.section.querySelector("select.compare");
            const chosen = select.value;
            const options = [new Option("nothing", "")];
            for (const [index, other] of [...rows.entries()].sort((a, b) => a[0] - b[0])) {
              if (other !== row && other.pattern) options.push(new Option(other.pattern.name, String(index)));
            }
            select.replaceChildren(...options);
            select.value = options.some(o => o.value === chosen) ? chosen : "";
            if (select.value === "") row.compare = null;
          }
        }

        function showDiagnostics(row) {
          const list = row.section.querySelector("ol.diagnostics");
          list.replaceChildren();
          const pattern = row.pattern;
          if (pattern.failure && pattern.status === "unreadable") {
            const item = document.createElement("li");
            item.className = "error";
            item.textContent = pattern.failure;
            list.append(item);
          }
          for (const d of pattern.diagnostics) {
            const item = document.createElement("li");
            item.className = d.severity;
            item.dataset.line = String(d.line);
            item.dataset.column = String(d.column);
            item.dataset.rule = d.rule;
            const place = document.createElement("button");
            place.type = "button";
            place.textContent = d.line + ":" + d.column;
            place.addEventListener("click", () => highlight(row, d.line, d.column));
            item.append(place, " " + d.severity + ": " + d.path + ": " + d.message + " [" + d.rule + "]");
            list.append(item);
          }
          row.section.dataset.diagnostics = String(pattern.diagnostics.length);
        }

        function showSource(row) {
          const pre = row.section.querySelector("pre.lines");
          pre.replaceChildren();
          const text = row.pattern.source;
          row.section.querySelector("details.source").hidden = text === null;
          if (text === null) return;
          const lines = text.split(/\r\n|\r|\n/);
          lines.forEach((line, i) => {
            const span = document.createElement("span");
            span.dataset.line = String(i + 1);
            span.textContent = line;
            pre.append(span);
          });
        }

        function highlight(row, line, column) {
          const details = row.section.querySelector("details.source");
          details.open = true;
          for (const old of details.querySelectorAll("span.highlight")) old.classList.remove("highlight");
          const span = details.querySelector('span[data-line="' + Number(line) + '"]');
          if (!span) return;
          span.classList.add("highlight");
          span.title = "column " + column;
          span.scrollIntoView({ block: "center" });
          row.section.dataset.highlightedLine = String(line);
        }

        function draw(row) {
          const canvas = row.canvas, section = row.section, pattern = row.pattern;
          const ratio = window.devicePixelRatio || 1;
          const width = Math.max(200, canvas.clientWidth), height = Math.max(120, canvas.clientHeight);
          if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
            canvas.width = Math.round(width * ratio); canvas.height = Math.round(height * ratio);
          }
          const g = canvas.getContext("2d");
          g.setTransform(ratio, 0, 0, ratio, 0, 0);
          g.clearRect(0, 0, width, height);
          const left = 40, right = 10, top = 10, bottom = 22;
          const plotWidth = width - left - right, plotHeight = height - top - bottom;
          const v = visible();
          const x = t => left + (t - v.start) / (v.end - v.start) * plotWidth;
          const y = value => top + (1 - value) * plotHeight;
          // Grid and axes.
          g.strokeStyle = "#e4e4e4"; g.lineWidth = 1;
          for (const value of [0.25, 0.5, 0.75, 1]) { g.beginPath(); g.moveTo(left, y(value)); g.lineTo(left + plotWidth, y(value)); g.stroke(); }
          g.fillStyle = "#333"; g.font = "11px sans-serif"; g.textAlign = "right";
          for (const [value, label] of [[0, "0"], [0.5, "0.5"], [1, "1"]]) g.fillText(label, left - 5, y(value) + 4);
          const step = tickStep(v.end - v.start, Math.max(2, Math.floor(plotWidth / 70)));
          g.textAlign = "center"; g.strokeStyle = "#444";
          for (let t = Math.ceil(v.start / step) * step; t <= v.end + 1e-9; t += step) {
            g.beginPath(); g.moveTo(x(t), y(0)); g.lineTo(x(t), y(0) + 4); g.stroke();
            g.fillText(seconds(t), x(t), height - 6);
          }
          g.beginPath(); g.moveTo(left, y(0)); g.lineTo(left + plotWidth, y(0)); g.moveTo(left, y(0)); g.lineTo(left, y(1)); g.stroke();
          const timeline = pattern && pattern.timeline;
          let transientsDrawn = 0, peaksDrawn = 0;
          g.save();
          g.beginPath(); g.rect(left, 0, plotWidth, height); g.clip();
          if (timeline) {
            // The sound: grey, around the middle.
            const audio = timeline.audio;
            if (audio && audio.peaks.length > 0) {
              const middle = y(0.5), half = plotHeight / 2, slice = audio.seconds / audio.peaks.length;
              g.fillStyle = "#d0d0d0";
              audio.peaks.forEach(([low, high], i) => {
                const x0 = x(i * slice), x1 = x((i + 1) * slice);
                if (x1 < left || x0 > left + plotWidth) return;
                g.fillRect(x0, middle - high * half, Math.max(1, x1 - x0), Math.max(1, (high - low) * half));
                peaksDrawn += 1;
              });
            }
            const bp = timeline.breakpoints;
            if (bp.length > 0) {
              g.beginPath(); g.moveTo(x(bp[0][0]), y(0));
              for (const [t, i] of bp) g.lineTo(x(t), y(i));
              g.lineTo(x(bp[bp.length - 1][0]), y(0)); g.closePath();
              g.fillStyle = "rgba(31, 119, 180, 0.12)"; g.fill();
              g.beginPath(); bp.forEach(([t, i], k) => k === 0 ? g.moveTo(x(t), y(i)) : g.lineTo(x(t), y(i)));
              g.strokeStyle = "#1f77b4"; g.lineWidth = 2; g.stroke();
              // Sharpness only where the continuous track sounds (a segment with an end above 0).
              g.beginPath(); g.setLineDash([5, 3]);
              for (let k = 0; k + 1 < bp.length; k++) {
                if (bp[k][1] > 0 || bp[k + 1][1] > 0) { g.moveTo(x(bp[k][0]), y(bp[k][2])); g.lineTo(x(bp[k + 1][0]), y(bp[k + 1][2])); }
              }
              g.strokeStyle = "#ff7f0e"; g.lineWidth = 1.5; g.stroke(); g.setLineDash([]);
            }
            g.strokeStyle = "#d62728"; g.fillStyle = "#d62728"; g.lineWidth = 1.5;
            for (const [t, i] of timeline.transients) {
              if (t < v.start || t > v.end) continue;
              g.beginPath(); g.moveTo(x(t), y(0)); g.lineTo(x(t), y(i)); g.stroke();
              g.beginPath(); g.arc(x(t), y(i), 3, 0, 2 * Math.PI); g.fill();
              transientsDrawn += 1;
            }
          }
          // The pattern compared with (B): its intensity (solid), sharpness (dotted) and
          // transients (hollow stems), purple, over this lane.
          const other = row.compare === null ? null : rows.get(row.compare);
          const b = other && other.pattern && other.pattern.timeline;
          let overlayTransients = 0;
          if (b) {
            const bp = b.breakpoints;
            g.strokeStyle = "#9467bd";
            if (bp.length > 0) {
              g.beginPath(); bp.forEach(([t, i], k) => k === 0 ? g.moveTo(x(t), y(i)) : g.lineTo(x(t), y(i)));
              g.lineWidth = 2; g.stroke();
              g.beginPath(); g.setLineDash([2, 3]);
              for (let k = 0; k + 1 < bp.length; k++) {
                if (bp[k][1] > 0 || bp[k + 1][1] > 0) { g.moveTo(x(bp[k][0]), y(bp[k][2])); g.lineTo(x(bp[k + 1][0]), y(bp[k + 1][2])); }
              }
              g.lineWidth = 1.5; g.stroke(); g.setLineDash([]);
            }
            g.fillStyle = "#9467bd"; g.lineWidth = 1.5;
            for (const [t, i] of b.transients) {
              if (t < v.start || t > v.end) continue;
              g.beginPath(); g.moveTo(x(t), y(0)); g.lineTo(x(t), y(i)); g.stroke();
              g.beginPath(); g.arc(x(t), y(i), 3.5, 0, 2 * Math.PI); g.fill();
              overlayTransients += 1;
            }
          }
          section.dataset.overlayIndex = b ? String(row.compare) : "";
          section.dataset.overlayName = b ? other.pattern.name : "";
          section.dataset.overlayGeneration = b ? String(b.generation) : "";
          section.dataset.overlayBreakpointsDrawn = String(b ? b.breakpoints.length : 0);
          section.dataset.overlayTransientsDrawn = String(overlayTransients);
          // The playhead: where the sound playing in this page is.
          if (row.audio.src && (!row.audio.paused || row.audio.currentTime > 0)) {
            const t = row.audio.currentTime;
            g.strokeStyle = "#2ca02c"; g.lineWidth = 2;
            g.beginPath(); g.moveTo(x(t), top); g.lineTo(x(t), y(0)); g.stroke();
            section.dataset.playhead = String(t);
          }
          g.restore();
          section.dataset.transientsDrawn = String(transientsDrawn);
          section.dataset.breakpointsDrawn = String(timeline ? timeline.breakpoints.length : 0);
          section.dataset.peaksDrawn = String(peaksDrawn);
          section.dataset.drawnStart = String(v.start);
          section.dataset.drawnEnd = String(v.end);
        }

        function tickStep(range, maxTicks) {
          const raw = range / maxTicks, power = Math.pow(10, Math.floor(Math.log10(raw)));
          for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
          return 10 * power;
        }

        function drawAll() { for (const row of rows.values()) draw(row); }

        let animating = false;
        function animate() {
          if (animating) return;
          animating = true;
          const frame = () => {
            const playing = [...rows.values()].filter(row => !row.audio.paused);
            for (const row of playing) draw(row);
            if (playing.length > 0) requestAnimationFrame(frame); else animating = false;
          };
          requestAnimationFrame(frame);
        }

        window.addEventListener("resize", drawAll);

        const events = new EventSource("events");
        events.addEventListener("open", () => { status.textContent = "live: reloads on save"; status.dataset.connected = "true"; });
        events.addEventListener("error", () => { status.textContent = "not connected: is cabin studio still running?"; status.dataset.connected = "false"; });
        events.addEventListener("pattern", event => {
          let pattern;
          try { pattern = JSON.parse(event.data); } catch (error) { return; }
          if (pattern) show(pattern);
          document.body.dataset.patterns = String(rows.size);
        });

        """#
}
