/**
 * The player page's own script (inline, under the page's CSP nonce): it sets up scorm-again from the page's
 * JSON config before the package loads, resumes the registration, and sends commits with the registration
 * token, never lowering the status it last sent.
 */
export const PLAYER_SCRIPT = `(function () {
  'use strict';
  var cfg = JSON.parse(document.getElementById('player-config').textContent);
  var statusEl = document.getElementById('status');
  var RANK = { not_attempted: 0, incomplete: 1, completed: 2, failed: 3, passed: 4 };
  var sent = cfg.resume.status;
  function show(status) { statusEl.textContent = status.replace('_', ' '); statusEl.setAttribute('data-status', status); }
  function send(body, final) {
    return fetch(cfg.commitUrl, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'X-Registration-Token': cfg.commitToken },
      body: JSON.stringify(body),
      keepalive: !!final,
      credentials: 'omit',
    }).then(function (response) { return response.json(); }).then(function (registration) {
      if (registration && registration.status) { sent = registration.status; show(registration.status); }
      return registration;
    }).catch(function () { /* the next commit carries the same state */ });
  }
  function seconds(value) {
    if (!value) return undefined;
    var m = /^(\\d+):(\\d+):(\\d+(?:\\.\\d+)?)$/.exec(value);
    if (m) return Math.round(+m[1] * 3600 + +m[2] * 60 + +m[3]);
    m = /^P(?:(\\d+)D)?(?:T(?:(\\d+)H)?(?:(\\d+)M)?(?:([\\d.]+)S)?)?$/.exec(value);
    if (m) return Math.round((+m[1] || 0) * 86400 + (+m[2] || 0) * 3600 + (+m[3] || 0) * 60 + (+m[4] || 0));
    return undefined;
  }
  var api = null;
  var settings = { autocommit: false, logLevel: 5, lmsCommitUrl: false };
  if (cfg.api === 'API' && window.Scorm12API) {
    api = new window.Scorm12API(settings);
    var init12 = { core: { student_id: cfg.learner.id, student_name: cfg.learner.id } };
    if (cfg.resume.location) init12.core.lesson_location = cfg.resume.location;
    if (cfg.resume.location || cfg.resume.suspendData) init12.core.entry = 'resume';
    if (cfg.resume.suspendData) init12.suspend_data = cfg.resume.suspendData;
    if (cfg.masteryScore !== null) init12.student_data = { mastery_score: String(cfg.masteryScore) };
    api.loadFromJSON(init12, '');
    window.API = api;
  } else if (cfg.api === 'API_1484_11' && window.Scorm2004API) {
    api = new window.Scorm2004API(settings);
    var init04 = { learner_id: cfg.learner.id, learner_name: cfg.learner.id };
    if (cfg.resume.location) init04.location = cfg.resume.location;
    if (cfg.resume.location || cfg.resume.suspendData) init04.entry = 'resume';
    if (cfg.resume.suspendData) init04.suspend_data = cfg.resume.suspendData;
    if (cfg.masteryScore !== null) init04.scaled_passing_score = String(cfg.masteryScore / 100);
    api.loadFromJSON(init04, '');
    window.API_1484_11 = api;
  }
  function state12() {
    var core = api.cmi.core;
    var map = { passed: 'passed', completed: 'completed', failed: 'failed', incomplete: 'incomplete', browsed: 'incomplete', 'not attempted': 'not_attempted' };
    var body = { location: core.lesson_location || undefined, suspend_data: api.cmi.suspend_data || undefined };
    var status = map[core.lesson_status];
    if (status) body.status = status;
    var raw = parseFloat(core.score.raw), max = parseFloat(core.score.max) || 100;
    if (!isNaN(raw)) body.score_scaled = Math.max(-1, Math.min(1, raw / max));
    body.total_time_s = seconds(core.total_time);
    return body;
  }
  function state2004() {
    var cmi = api.cmi;
    var body = { location: cmi.location || undefined, suspend_data: cmi.suspend_data || undefined };
    if (cmi.success_status === 'passed' || cmi.success_status === 'failed') body.status = cmi.success_status;
    else if (cmi.completion_status === 'completed' || cmi.completion_status === 'incomplete') body.status = cmi.completion_status;
    var scaled = parseFloat(cmi.score.scaled);
    if (!isNaN(scaled)) body.score_scaled = scaled;
    body.total_time_s = seconds(cmi.total_time);
    return body;
  }
  function commit(final) {
    if (!api) return;
    var body = cfg.api === 'API' ? state12() : state2004();
    if (body.status && RANK[body.status] <= RANK[sent]) delete body.status;
    send(body, final);
  }
  if (api) {
    if (cfg.api === 'API') {
      api.on('LMSInitialize', function () { if (RANK[sent] < 1) send({ status: 'incomplete' }); });
      api.on('LMSCommit', function () { commit(false); });
      api.on('LMSFinish', function () { commit(true); });
    } else {
      api.on('Initialize', function () { if (RANK[sent] < 1) send({ status: 'incomplete' }); });
      api.on('Commit', function () { commit(false); });
      api.on('Terminate', function () { commit(true); });
    }
  }
  if (cfg.launchMethod === 'new_window') {
    var button = document.createElement('button');
    button.id = 'open';
    button.textContent = 'Open the module';
    button.addEventListener('click', function () { window.open(cfg.launchUrl, 'training-module'); });
    document.body.appendChild(button);
  } else {
    var frame = document.createElement('iframe');
    frame.id = 'content';
    frame.title = 'Training module';
    frame.src = cfg.launchUrl;
    document.body.appendChild(frame);
  }
})();
`;
