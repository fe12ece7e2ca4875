/** The dashboard's own stylesheet and script: served by the service, nothing from the internet. */
export const APP_CSS = `
:root{--ink:#1b2430;--muted:#4f5d6b;--line:#d5dbe1;--bg:#f5f7f9;--accent:#0b57a4;--ok:#1f6e3a;--bad:#a4262c;--warn:#7a4b00}
*{box-sizing:border-box}
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:var(--ink);background:var(--bg)}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible,main:focus-visible{outline:3px solid #f2a900;outline-offset:2px;box-shadow:0 0 0 5px #1b2430}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:8px;z-index:10}.skip:focus{left:8px}
.top{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:8px;padding:10px 16px;background:#12324f;color:#fff}
.top a.brand{color:#fff;font-weight:700;text-decoration:none;font-size:18px}
.who{display:flex;gap:10px;align-items:center;flex-wrap:wrap}
nav ul{display:flex;flex-wrap:wrap;gap:4px;list-style:none;margin:0;padding:6px 12px;background:#fff;border-bottom:1px solid var(--line)}
nav.groups{display:flex;flex-wrap:wrap;gap:4px 20px;padding:4px 12px;background:#fff;border-bottom:1px solid var(--line)}
nav.groups ul{padding:0;border:0;gap:2px}.nav-group{display:flex;flex-wrap:wrap;align-items:center;gap:2px 6px}
.nav-label{font-size:13px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}.nav-here .nav-label{color:var(--ink)}
nav a{display:block;padding:8px 10px;text-decoration:none;border-radius:4px}
nav a[aria-current=page]{background:#e3edf8;font-weight:700;text-decoration:underline}
main{max-width:1100px;margin:0 auto;padding:16px}
h1{font-size:26px;margin:8px 0 16px}h2{font-size:20px;margin:24px 0 8px}
section,.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:16px;margin:0 0 16px}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;padding:0;list-style:none}
.tiles li{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px}
.tiles strong{display:block;font-size:28px}
.table-wrap{overflow-x:auto}
.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(160px,1fr));gap:12px;margin:0}.facts dt{font-size:14px;color:var(--muted)}.facts dd{margin:0;font-weight:600}
progress{width:100%;height:20px}
table{width:100%;border-collapse:collapse;background:#fff}th,td{padding:8px 6px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{font-size:14px;color:var(--muted)}
label{display:block;font-weight:600;margin:8px 0 4px}
input,select,textarea{font:inherit;padding:8px;border:1px solid #6b7785;border-radius:4px;max-width:100%}
input[type=checkbox]{width:20px;height:20px;vertical-align:middle}
textarea{width:100%;min-height:120px}
button{font:inherit;padding:8px 14px;border-radius:4px;border:1px solid #0b3f77;background:var(--accent);color:#fff;cursor:pointer;min-height:40px}
button.secondary{background:#fff;color:var(--accent)}button.in-text{min-height:28px;padding:2px 10px;font-size:14px}button.danger{background:var(--bad);border-color:#6d1419}
a.danger-link{display:inline-block;padding:8px 4px;min-height:40px;color:var(--bad);font-weight:600}.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}.event-about{margin:0 0 8px 28px;font-size:14px}.wrap-anywhere,.wrap-anywhere *{overflow-wrap:anywhere;min-width:0}.confirm{border:2px solid var(--bad)}
.inline{display:inline}
.row{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-end}
.muted{color:var(--muted)}
.pre-line{white-space:pre-line;overflow-wrap:anywhere}
fieldset{border:1px solid var(--line);border-radius:4px;margin:12px 0}
.notice{padding:10px 12px;border-radius:6px;margin:0 0 16px;border:2px solid}
.notice-ok{background:#e6f4ea;border-color:var(--ok)}.notice-error{background:#fbe9ea;border-color:var(--bad)}.notice-warn{background:#fff4e0;border-color:var(--warn)}
.notice p{margin:0 0 4px}.notice ul{margin:4px 0 0}
.secret{font-family:ui-monospace,monospace;font-size:15px;background:#fffbe6;border:2px dashed var(--warn);padding:10px;word-break:break-all}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;border:1px solid;font-size:14px;white-space:nowrap}
.badge-delivered{background:#e6f4ea;border-color:var(--ok)}.badge-in_transit{background:#e3edf8;border-color:var(--accent)}
.badge-failed,.badge-cancelled{background:#fbe9ea;border-color:var(--bad)}.badge-planned,.badge-unknown{background:#f1f3f5;border-color:#6b7785}
.late{color:var(--bad);font-weight:600}
.estimated{font-style:italic;color:var(--muted)}
.route-map{width:100%;height:auto;border:1px solid var(--line);border-radius:6px}.sea{fill:#dbe8f3}.land{fill:#eef0e8;stroke:#9aa392;stroke-width:.5}
.route{fill:none;stroke:#0b57a4;stroke-width:2.5}.inland{fill:none;stroke:#8a4b00;stroke-width:3;stroke-dasharray:7 4}.stop circle{fill:#fff;stroke:#0b57a4;stroke-width:2}
.stop.destination circle{fill:#0b57a4}.stop text{font-size:11px;fill:#1b2430;paint-order:stroke;stroke:#fff;stroke-width:3px}
.pin circle{fill:#f2a900;stroke:#1b2430;stroke-width:2}.pin text{font-size:12px;font-weight:700;fill:#1b2430;paint-order:stroke;stroke:#fff;stroke-width:3px}
.glance{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:12px;margin:0}.glance dt{font-size:14px;color:var(--muted)}.glance dd{margin:0;font-weight:600}
.jump{display:flex;flex-wrap:wrap;gap:4px 14px;list-style:none;padding:0;margin:0 0 16px}
td details{min-width:16em}
pre{white-space:pre-wrap;word-break:break-all;background:#f1f3f5;padding:8px;border-radius:4px;font-size:13px}
details summary{cursor:pointer;padding:4px 0}
.auth{max-width:420px;margin:40px auto}
@media (max-width:640px){main{padding:10px}h1{font-size:22px}.hide-narrow{display:none}th,td{padding:6px 4px;font-size:14px}}
`;

/**
 * Times in the reader's zone: every <time datetime> gets its text rewritten to the local time, with
 * the zone's name (e.g. GMT+1); the UTC value stays in its title (hover). A port's time
 * (`data-clock="port"`) already names its clock and is left as written. Copy buttons copy a secret to the clipboard.
 */
export const APP_JS = `
(function(){
  var fmt;
  // The server's one shape ("17 Dec 2026 17:30 GMT+8"), in the reader's zone, whatever the browser's language.
  // The zone as an offset ("GMT+1", not "CET"), as the port's times name theirs.
  var opts = {year:"numeric",month:"numeric",day:"numeric",hour:"2-digit",minute:"2-digit",hourCycle:"h23",timeZoneName:"shortOffset"};
  try { fmt = new Intl.DateTimeFormat("en-GB",opts); } catch(e) {
    try { opts.timeZoneName = "short"; fmt = new Intl.DateTimeFormat("en-GB",opts); } catch(e2) { return; }
  }
  var MONTHS = ["Jan","Feb","Mar","Apr","May","Jun","Jul","Aug","Sep","Oct","Nov","Dec"];
  function text(d){
    var p = {}; fmt.formatToParts(d).forEach(function(x){ p[x.type] = x.value; });
    // The day as the server writes it ("1 Dec"): en-GB's parts pad it ("01") beside a numeric month.
    return Number(p.day) + " " + MONTHS[Number(p.month) - 1] + " " + p.year + " " + p.hour + ":" + p.minute + " " + p.timeZoneName;
  }
  function localise(root){
    root.querySelectorAll("time[datetime]:not([data-clock])").forEach(function(t){
      if (t.getAttribute("datetime").length === 10) return; // a calendar day has no zone to convert
      if (t.dataset.local) return;
      var d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d)) { t.textContent = text(d); t.dataset.local = "1"; }
    });
  }
  document.addEventListener("DOMContentLoaded", function(){ localise(document); });
  document.addEventListener("htmx:afterSwap", function(e){ localise(e.target); });
  // A form that takes a while (Track asks carriers) says so while the page waits, and is sent once.
  document.addEventListener("submit", function(e){
    var f = e.target;
    if (!f.dataset || !f.dataset.progress) return;
    var out = f.querySelector("[data-progress-text]");
    if (out) out.textContent = f.dataset.progress;
    f.setAttribute("aria-busy", "true");
    f.querySelectorAll("button[type=submit]").forEach(function(b){ b.disabled = true; });
  });
  document.addEventListener("click", function(e){
    var b = e.target.closest && e.target.closest("button[data-copy]");
    if (!b) return;
    var el = document.getElementById(b.getAttribute("data-copy"));
    if (el && navigator.clipboard) navigator.clipboard.writeText(el.textContent.trim()).then(function(){ b.textContent = "Copied"; });
  });
})();
`;
