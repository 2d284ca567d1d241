/** The application's stylesheet, served from /assets (the CSP allows no inline styles). */
export const STYLES = `
:root {
  --bg: #f5f6f8;
  --surface: #ffffff;
  --surface-muted: #f9fafb;
  --border: #e2e5ea;
  --border-strong: #cdd2da;
  --text: #111827;
  --text-muted: #5b6472;
  --text-faint: #8a93a1;
  --accent: #2450d3;
  --accent-hover: #1c40ad;
  --accent-soft: #eaf0ff;
  --danger: #b42318;
  --danger-hover: #912018;
  --danger-soft: #fef3f2;
  --danger-border: #fecdca;
  --success: #067647;
  --success-soft: #ecfdf3;
  --success-border: #abefc6;
  --warning-soft: #fffaeb;
  --warning-border: #fedf89;
  --warning-text: #93370d;
  --sidebar: #0d1321;
  --sidebar-text: #c8cfdb;
  --sidebar-muted: #7c8698;
  --sidebar-active: #1d2638;
  --focus: #2f6bff;
  --radius: 8px;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  color-scheme: light;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "DejaVu Sans", sans-serif;
  font-size: 14px;
  line-height: 1.5;
  color: var(--text);
  background: var(--bg);
}
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; border-radius: 4px; }
h1, h2, h3 { line-height: 1.25; margin: 0; }
h1 { font-size: 22px; font-weight: 650; letter-spacing: -0.01em; }
h2 { font-size: 16px; font-weight: 600; }
p { margin: 0; }
.muted { color: var(--text-muted); }
.mono { font-family: var(--mono); font-size: 13px; }
.visually-hidden {
  position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
.skip-link {
  position: absolute; left: 12px; top: -48px; z-index: 10; padding: 8px 12px;
  background: var(--surface); color: var(--text); border-radius: var(--radius);
  box-shadow: 0 2px 8px rgba(0,0,0,.2);
}
.skip-link:focus { top: 12px; }

/* Shell: a sidebar beside the content, a top bar on narrow screens. */
/* The gradient paints the sidebar's column down the whole page, however long. */
.shell { display: grid; grid-template-columns: 240px minmax(0, 1fr); min-height: 100vh; background: linear-gradient(to right, var(--sidebar) 240px, transparent 240px); }
.sidebar {
  background: var(--sidebar); color: var(--sidebar-text);
  display: flex; flex-direction: column; padding: 20px 14px; gap: 24px;
  position: sticky; top: 0; height: 100vh;
}
.brand { display: flex; align-items: center; gap: 10px; color: #fff; font-weight: 650; font-size: 16px; padding: 0 8px; }
.brand:hover { text-decoration: none; }
.brand svg { flex: none; }
.brand small { display: block; font-weight: 500; font-size: 11px; color: var(--sidebar-muted); letter-spacing: .04em; text-transform: uppercase; }
.nav { display: flex; flex-direction: column; gap: 18px; flex: 1; }
.nav-group { display: flex; flex-direction: column; gap: 2px; }
.nav-heading { font-size: 11px; font-weight: 600; letter-spacing: .06em; text-transform: uppercase; color: var(--sidebar-muted); padding: 0 10px 6px; }
.nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 2px; }
.nav-item {
  display: flex; align-items: center; justify-content: space-between; gap: 8px;
  padding: 7px 10px; border-radius: 6px; color: var(--sidebar-text); font-weight: 500;
}
a.nav-item:hover { background: var(--sidebar-active); color: #fff; text-decoration: none; }
.nav-item[aria-current="page"] { background: var(--sidebar-active); color: #fff; box-shadow: inset 3px 0 0 #5b8cff; }
.nav-item.is-disabled { color: var(--sidebar-muted); cursor: default; }
.soon { font-size: 10px; font-weight: 600; letter-spacing: .04em; text-transform: uppercase; padding: 1px 6px; border-radius: 999px; border: 1px solid #2b3548; color: var(--sidebar-muted); }
.account { border-top: 1px solid #1f2839; padding: 14px 8px 0; display: flex; flex-direction: column; gap: 10px; }
.account-name { color: #fff; font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.account-email { color: var(--sidebar-muted); font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.account form { margin: 0; }
.signout {
  width: 100%; background: transparent; color: var(--sidebar-text); border: 1px solid #2b3548;
  border-radius: 6px; padding: 6px 10px; font: inherit; cursor: pointer;
}
.signout:hover { background: var(--sidebar-active); color: #fff; }
.role-badge { display: inline-block; font-size: 11px; font-weight: 600; padding: 1px 7px; border-radius: 999px; background: #1d2638; color: #aebbd3; margin-top: 4px; }

.content { min-width: 0; padding: 28px 40px 56px; }
.page { max-width: 1040px; }
.page-header { display: flex; align-items: flex-end; justify-content: space-between; gap: 16px; flex-wrap: wrap; margin-bottom: 20px; }
.page-header p { margin-top: 6px; color: var(--text-muted); max-width: 640px; }
.breadcrumb { font-size: 13px; color: var(--text-muted); margin-bottom: 6px; }
.breadcrumb a { color: var(--text-muted); }
.tabs { display: flex; gap: 4px; border-bottom: 1px solid var(--border); margin-bottom: 24px; overflow-x: auto; }
.tabs a { padding: 9px 12px; color: var(--text-muted); font-weight: 550; border-bottom: 2px solid transparent; margin-bottom: -1px; white-space: nowrap; }
.tabs a:hover { color: var(--text); text-decoration: none; }
.tabs a[aria-current="page"] { color: var(--text); border-bottom-color: var(--accent); }

/* Surfaces */
.card { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); }
.card + .card { margin-top: 16px; }
.card-header { padding: 16px 20px; border-bottom: 1px solid var(--border); }
.card-header p { color: var(--text-muted); margin-top: 4px; }
.card-header.split { display: flex; align-items: center; justify-content: space-between; gap: 16px; flex-wrap: wrap; }
.card-header.split > div { flex: 1 1 360px; }
.card-body { padding: 20px; }
.card-footer { padding: 14px 20px; border-top: 1px solid var(--border); background: var(--surface-muted); border-radius: 0 0 var(--radius) var(--radius); display: flex; align-items: center; gap: 12px; flex-wrap: wrap; }

/* Buttons */
.button {
  display: inline-flex; align-items: center; justify-content: center; gap: 6px;
  padding: 8px 14px; border-radius: 6px; border: 1px solid var(--border-strong);
  background: var(--surface); color: var(--text); font: inherit; font-weight: 550;
  cursor: pointer; white-space: nowrap; line-height: 1.3;
}
.button:hover { background: var(--surface-muted); text-decoration: none; }
.button-primary { background: var(--accent); border-color: var(--accent); color: #fff; }
.button-primary:hover { background: var(--accent-hover); border-color: var(--accent-hover); }
.button-danger { background: var(--danger); border-color: var(--danger); color: #fff; }
.button-danger:hover { background: var(--danger-hover); border-color: var(--danger-hover); }
.button-subtle-danger { color: var(--danger); border-color: transparent; background: transparent; padding: 6px 10px; }
.button-subtle-danger:hover { background: var(--danger-soft); border-color: var(--danger-border); }
.button:disabled, .button[aria-disabled="true"] { background: #e9ecf1; border-color: #e0e4ea; color: #8a93a1; cursor: not-allowed; }
.button-small { padding: 5px 10px; font-size: 13px; }

/* Tables */
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; }
th { text-align: left; font-size: 12px; font-weight: 600; color: var(--text-muted); text-transform: uppercase; letter-spacing: .04em; padding: 10px 16px; background: var(--surface-muted); border-bottom: 1px solid var(--border); white-space: nowrap; }
td { padding: 12px 16px; border-bottom: 1px solid var(--border); vertical-align: middle; }
tr:last-child td { border-bottom: 0; }
th:first-child { border-top-left-radius: var(--radius); }
th:last-child { border-top-right-radius: var(--radius); }
.cell-name { font-weight: 600; word-break: break-word; }
.cell-sub { display: block; color: var(--text-faint); font-size: 12px; font-weight: 400; }
.cell-date time, .cell-date .muted { white-space: nowrap; }
.cell-date .time { display: block; color: var(--text-faint); font-size: 12px; }
.cell-actions { text-align: right; width: 1%; white-space: nowrap; }

/* Badges */
.badge { display: inline-flex; align-items: center; gap: 6px; font-size: 12px; font-weight: 600; padding: 2px 9px; border-radius: 999px; border: 1px solid; white-space: nowrap; }
.badge::before { content: ""; width: 6px; height: 6px; border-radius: 50%; background: currentColor; }
.badge-active { color: var(--success); background: var(--success-soft); border-color: var(--success-border); }
.badge-expired { color: #6b7280; background: #f3f4f6; border-color: #e5e7eb; }

/* Alerts */
.alert { border: 1px solid; border-radius: var(--radius); padding: 12px 16px; margin-bottom: 20px; display: flex; gap: 12px; align-items: flex-start; }
.alert svg { flex: none; margin-top: 2px; }
.alert h2 { font-size: 14px; margin-bottom: 4px; }
.alert ul { margin: 6px 0 0; padding-left: 18px; }
.alert-error { background: var(--danger-soft); border-color: var(--danger-border); color: #7a271a; }
.alert-error a { color: #7a271a; text-decoration: underline; }
.alert-success { background: var(--success-soft); border-color: var(--success-border); color: #05603a; }
.alert-warning { background: var(--warning-soft); border-color: var(--warning-border); color: var(--warning-text); }
.alert:focus { outline: 2px solid var(--focus); outline-offset: 2px; }

/* Forms */
.field { display: flex; flex-direction: column; gap: 6px; max-width: 480px; }
.field + .field { margin-top: 18px; }
label, .label { font-weight: 600; }
.hint { color: var(--text-muted); font-size: 13px; }
.error-message, .card-header .error-message { color: var(--danger); font-size: 13px; font-weight: 550; display: flex; gap: 6px; align-items: center; }
input[type="text"], input[type="email"], input[type="password"], select {
  font: inherit; color: var(--text); background: var(--surface);
  border: 1px solid var(--border-strong); border-radius: 6px; padding: 8px 10px; width: 100%;
}
select { padding-right: 28px; }
input:focus-visible, select:focus-visible { outline: 2px solid var(--focus); outline-offset: 0; border-color: var(--focus); }
[aria-invalid="true"] { border-color: var(--danger) !important; background: #fffbfa; }
fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
legend { padding: 0; }

/* Permissions */
.presets { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; padding: 14px 20px; border-bottom: 1px solid var(--border); background: var(--surface-muted); }
.presets .label { margin-right: 4px; font-weight: 600; font-size: 13px; color: var(--text-muted); }
.scope-table td { padding: 10px 20px; }
.scope-table th { padding: 10px 20px; }
.scope-table tr.is-granted td:first-child { box-shadow: inset 3px 0 0 var(--accent); }
.scope-name { font-weight: 600; }
.scope-desc { display: block; color: var(--text-muted); font-size: 13px; }
.scope-level { width: 200px; }
.scope-level select { min-width: 170px; }
.permission-summary { color: var(--text-muted); font-size: 13px; }

/* Secret reveal */
.secret { display: flex; gap: 8px; align-items: stretch; max-width: 760px; margin-top: 8px; }
.secret input { font-family: var(--mono); font-size: 13px; background: var(--surface-muted); flex: 1; min-width: 0; }
.copy-status { font-size: 13px; color: var(--success); min-height: 20px; margin-top: 6px; }
.details { display: grid; grid-template-columns: 160px minmax(0, 1fr); gap: 10px 16px; margin: 0; }
.details dt { color: var(--text-muted); }
.details dd { margin: 0; word-break: break-word; }

/* Empty and status pages */
.empty { text-align: center; padding: 48px 20px; }
.empty h2 { margin-bottom: 6px; }
.empty p { color: var(--text-muted); margin-bottom: 18px; }
.status-page { max-width: 560px; }
.status-code { font-family: var(--mono); color: var(--text-faint); font-size: 13px; margin-bottom: 8px; }
.status-page h1 { margin-bottom: 10px; }
.status-page p + p { margin-top: 8px; }
.status-page .actions { margin-top: 20px; display: flex; gap: 10px; flex-wrap: wrap; }

/* Sign-in */
.auth-body { min-height: 100vh; display: flex; align-items: center; justify-content: center; padding: 24px; background: radial-gradient(circle at 50% 0%, #1a2440 0%, #0d1321 60%); }
.auth-card { width: 100%; max-width: 400px; background: var(--surface); border-radius: 12px; padding: 32px; box-shadow: 0 20px 50px rgba(0,0,0,.35); }
.auth-card .brand { color: var(--text); padding: 0; margin-bottom: 24px; }
.auth-card .brand small { color: var(--text-faint); }
.auth-card h1 { font-size: 20px; margin-bottom: 4px; }
.auth-card > p { color: var(--text-muted); margin-bottom: 22px; }
.auth-card .field { max-width: none; }
.auth-card .button { width: 100%; margin-top: 22px; padding: 10px 14px; }
.auth-foot { margin-top: 18px; font-size: 12px; color: var(--text-faint); text-align: center; }

@media (max-width: 960px) {
  .shell { grid-template-columns: minmax(0, 1fr); grid-template-rows: auto 1fr; background: none; }
  .sidebar { position: static; height: auto; flex-direction: row; flex-wrap: wrap; align-items: center; gap: 10px 20px; padding: 12px 20px; }
  .nav { flex-direction: row; flex-wrap: wrap; gap: 4px 16px; flex: 1; order: 3; flex-basis: 100%; }
  .nav-group { flex-direction: row; align-items: center; gap: 4px; }
  .nav-heading { padding: 0 4px 0 0; }
  .nav ul { flex-direction: row; gap: 2px; }
  .nav-item { padding: 5px 9px; }
  .nav-item[aria-current="page"] { box-shadow: inset 0 -2px 0 #5b8cff; }
  .account { border-top: 0; padding: 0; margin-left: auto; flex-direction: row; align-items: center; gap: 12px; order: 2; }
  .account-email, .role-badge { display: none; }
  .signout { width: auto; }
  .content { padding: 24px 20px 48px; }
  .scope-level { width: 180px; }
  .scope-level select { min-width: 150px; }
}
@media (max-width: 640px) {
  .scope-table thead { display: none; }
  .scope-table tr { display: block; padding: 10px 0; border-bottom: 1px solid var(--border); }
  .scope-table td { display: block; border: 0; padding: 4px 16px; width: auto; }
  .details { grid-template-columns: minmax(0, 1fr); gap: 2px; }
  .details dd { margin-bottom: 10px; }
}

/* Settings → Notifications and Integrations */
textarea {
  font: inherit; color: var(--text); background: var(--surface); width: 100%; resize: vertical;
  border: 1px solid var(--border-strong); border-radius: 6px; padding: 8px 10px; min-height: 88px;
}
textarea:focus-visible { outline: 2px solid var(--focus); outline-offset: 0; border-color: var(--focus); }
.settings-form { margin-top: 16px; }
.field-narrow input { max-width: 200px; }
.field-wide { max-width: 640px; }
.card-body > .choice + .field, .card-body > .field + .choice { margin-top: 18px; }
fieldset.field > legend { margin-bottom: 6px; }
.choices { display: flex; flex-direction: column; gap: 10px; }
.choice { display: flex; align-items: flex-start; gap: 10px; max-width: 640px; }
.choice label { cursor: pointer; }
.choice input { width: 16px; height: 16px; margin: 2px 0 0; flex: none; accent-color: var(--accent); }
.choice-desc { display: block; font-weight: 400; font-size: 13px; color: var(--text-muted); word-break: break-word; }
.card-footer form { margin: 0; }
.button-group { display: inline-flex; gap: 8px; flex-wrap: wrap; }
.card-header.split > .badge { flex: none; }
.card > .card-header:last-child { border-bottom: 0; }
.plain-list { list-style: none; margin: 0; padding: 0; }
.badge-pending { color: var(--warning-text); background: var(--warning-soft); border-color: var(--warning-border); }
.badge-delivering { color: var(--accent); background: var(--accent-soft); border-color: #c7d5fb; }
.badge-delivered { color: var(--success); background: var(--success-soft); border-color: var(--success-border); }
.badge-dead { color: var(--danger); background: var(--danger-soft); border-color: var(--danger-border); }
.cell-url .mono { word-break: break-all; font-size: 12px; }
.cell-attempts { min-width: 240px; }
.attempts { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 6px; font-size: 12px; }
.attempt-head { color: var(--text-muted); }
.attempt-error { display: block; color: var(--danger); word-break: break-word; }
.error-message svg { flex: none; }

/* Detections and investigations */
.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
th.num { text-align: right; }
.risk { display: inline-block; min-width: 42px; text-align: center; font-weight: 650; font-variant-numeric: tabular-nums; padding: 1px 8px; border-radius: 6px; border: 1px solid; }
.risk-high { color: var(--danger); background: var(--danger-soft); border-color: var(--danger-border); }
.risk-medium { color: var(--warning-text); background: var(--warning-soft); border-color: var(--warning-border); }
.risk-low { color: var(--text-muted); background: var(--surface-muted); border-color: var(--border); }
.pager { justify-content: flex-end; }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 12px; margin: 0 0 8px; }
.stat { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 12px 16px; min-width: 0; }
.stat dt { font-size: 12px; font-weight: 600; color: var(--text-muted); text-transform: uppercase; letter-spacing: .04em; }
.stat dd { margin: 4px 0 0; font-size: 18px; font-weight: 650; overflow-wrap: anywhere; }
.stat dd time { font-size: 14px; font-weight: 550; }
.detection-id { font-size: 13px; margin-bottom: 20px; overflow-wrap: anywhere; }
.header-link:hover { text-decoration: none; }
.filter { padding: 16px 20px; border-bottom: 1px solid var(--border); display: flex; flex-direction: column; gap: 6px; }
.filter-row { display: flex; gap: 8px; align-items: stretch; }
.filter-row input { flex: 1; min-width: 0; }
.filter .hint .mono { font-size: 12px; overflow-wrap: anywhere; }
.cell-person, .cell-event { overflow-wrap: anywhere; }
.cell-event { min-width: 220px; }
.tag { display: inline-block; margin: 4px 6px 0 0; font-size: 11px; font-weight: 600; padding: 0 7px; border-radius: 999px; background: var(--accent-soft); color: var(--accent); }
.card h3 { font-size: 14px; font-weight: 600; margin-bottom: 12px; }
.toggle-row { display: flex; flex-direction: column; gap: 6px; margin: 0; }
.switch { display: inline-flex; align-items: center; gap: 10px; background: none; border: 0; padding: 2px; font: inherit; font-weight: 600; color: var(--text); cursor: pointer; align-self: flex-start; text-align: left; }
.switch-track { flex: none; width: 36px; height: 20px; border-radius: 999px; background: var(--border-strong); position: relative; transition: background .15s; }
.switch-thumb { position: absolute; top: 2px; left: 2px; width: 16px; height: 16px; border-radius: 50%; background: #fff; box-shadow: 0 1px 2px rgba(0,0,0,.3); transition: left .15s; }
.switch[aria-checked="true"] .switch-track { background: var(--accent); }
.switch[aria-checked="true"] .switch-thumb { left: 18px; }
.notice-in-card { padding: 16px 20px 0; }
.notice-in-card .alert { margin-bottom: 0; }
.inherited { border-top: 1px solid var(--border); background: var(--surface-muted); }
.detection-settings { border-top: 1px solid var(--border); }
.detection-settings .card-footer { border-radius: 0; }
.settings-grid { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 16px 32px; }
.settings-grid > div > * + * { margin-top: 16px; }
.list-inline { overflow-wrap: anywhere; }
.report-grid { display: grid; grid-template-columns: minmax(0, 1fr) 300px; gap: 16px; align-items: start; margin-top: 12px; }
.report-main, .report-side { display: flex; flex-direction: column; gap: 16px; min-width: 0; }
.report-main .card + .card, .report-side .card + .card { margin-top: 0; }
.prose p { white-space: pre-line; overflow-wrap: anywhere; }
.findings { list-style: none; margin: 0; padding: 0; counter-reset: finding; }
.finding { padding: 16px 20px; border-bottom: 1px solid var(--border); overflow-wrap: anywhere; }
.finding:last-child { border-bottom: 0; }
.finding h3 { margin-bottom: 4px; }
.finding h3::before { counter-increment: finding; content: counter(finding) ". "; color: var(--text-faint); }
.evidence { margin-top: 10px; padding: 10px 12px; background: var(--surface-muted); border: 1px solid var(--border); border-radius: 6px; }
.evidence .label { font-size: 12px; color: var(--text-muted); text-transform: uppercase; letter-spacing: .04em; }
.evidence ul { margin: 4px 0 0; padding-left: 18px; }
.details-stacked { grid-template-columns: minmax(0, 1fr); gap: 0; }
.details-stacked dt { font-size: 12px; }
.details-stacked dd { margin-bottom: 10px; }
.report-id { font-size: 12px; overflow-wrap: anywhere; }
@media (max-width: 960px) {
  .report-grid { grid-template-columns: minmax(0, 1fr); }
  .settings-grid { grid-template-columns: minmax(0, 1fr); }
}
`;
