/*
 * The launch page of a VR training SCORM package (docs/lms.md). Plain JavaScript, no framework,
 * nothing fetched but the console's API: the LMS opens it, it finds the LMS's SCORM runtime,
 * asks the console for a PIN for this learner, shows it, follows the launch and writes the
 * session's result into the SCORM data model.
 *
 * config.js (written at export) sets window.VRTC_LMS:
 *   { consoleUrl, packageKey, scormVersion: '1.2' | '2004', defaultLanguage, title: { ru, en } }
 */
/* global window, document -- a browser page (run by the LMS), not Node */
(function () {
  'use strict';

  var config = window.VRTC_LMS;
  var POLL_MS = config.pollMs || 3000;
  /** After an incomplete end, a late result (protocol v2) may still come: polled more slowly. */
  var LATE_POLL_MS = config.latePollMs || 10000;

  var TEXT = {
    ru: {
      loading: 'Подключение…',
      noLms: 'Не найдена среда SCORM системы обучения. Откройте курс из LMS.',
      noConsole: 'Консоль VR-тренировок недоступна. Попробуйте позже.',
      keyInvalid: 'Этот пакет больше не действует. Обратитесь к администратору обучения.',
      waiting: 'Наденьте шлем и введите в приложении этот PIN:',
      expires: 'PIN действует до {time}.',
      expired: 'Срок действия PIN истёк.',
      running: 'Тренировка идёт. Результат появится здесь после её окончания.',
      passed: 'Тренировка пройдена.',
      failed: 'Тренировка не пройдена.',
      score: 'Результат: {score}% ({done} из {max} заданий).',
      incomplete: 'Тренировка не завершена (отменена, прервана или истекло время).',
      again: 'Получить новый PIN',
      saved: 'Результат передан в систему обучения.',
    },
    en: {
      loading: 'Connecting…',
      noLms: "The learning system's SCORM runtime was not found. Open the course from your LMS.",
      noConsole: 'The VR training console cannot be reached. Try again later.',
      keyInvalid: 'This package is no longer valid. Ask your training administrator.',
      waiting: 'Put on the headset and enter this PIN in the app:',
      expires: 'The PIN is valid until {time}.',
      expired: 'The PIN has expired.',
      running: 'The training is under way. Its result will show here when it ends.',
      passed: 'Training passed.',
      failed: 'Training not passed.',
      score: 'Result: {score}% ({done} of {max} tasks).',
      incomplete: 'The training did not finish (cancelled, interrupted or out of time).',
      again: 'Get a new PIN',
      saved: 'The result was sent to your learning system.',
    },
  };

  // ---- The SCORM runtime (ADL's API discovery: parents first, then the opener's) ------------

  function findIn(start, name) {
    var win = start;
    var hops = 0;
    while (win && !hasApi(win, name) && win.parent && win.parent !== win && hops < 500) {
      hops += 1;
      win = win.parent;
    }
    return win && hasApi(win, name) ? win[name] : null;
  }

  function hasApi(win, name) {
    try {
      return win[name] !== undefined && win[name] !== null;
    } catch {
      return false; // another origin's window: not the runtime's
    }
  }

  function findApi(name) {
    var api = findIn(window, name);
    if (!api && window.opener) api = findIn(window.opener, name);
    if (!api && window.top && window.top.opener) api = findIn(window.top.opener, name);
    return api;
  }

  /** The two versions' calls and elements behind one face. */
  function runtime() {
    if (config.scormVersion === '2004') {
      var api2004 = findApi('API_1484_11');
      if (!api2004) return null;
      return {
        start: function () {
          return api2004.Initialize('');
        },
        get: function (key) {
          return api2004.GetValue(key);
        },
        set: function (key, value) {
          return api2004.SetValue(key, String(value));
        },
        commit: function () {
          return api2004.Commit('');
        },
        finish: function () {
          return api2004.Terminate('');
        },
        learnerId: 'cmi.learner_id',
        learnerName: 'cmi.learner_name',
        language: 'cmi.learner_preference.language',
        suspendData: 'cmi.suspend_data',
        writeResult: function (result) {
          var outcome = outcomeOf(result);
          api2004.SetValue('cmi.exit', 'suspend');
          api2004.SetValue(
            'cmi.completion_status',
            outcome === 'incomplete' ? 'incomplete' : 'completed',
          );
          api2004.SetValue('cmi.success_status', outcome === 'incomplete' ? 'unknown' : outcome);
          api2004.SetValue('cmi.score.min', '0');
          api2004.SetValue('cmi.score.max', '100');
          api2004.SetValue('cmi.score.raw', String(result.score));
          api2004.SetValue('cmi.score.scaled', String(result.score / 100));
          api2004.SetValue('cmi.session_time', isoDuration(result.duration_seconds || 0));
        },
        markStarted: function () {
          api2004.SetValue('cmi.exit', 'suspend');
          if (api2004.GetValue('cmi.completion_status') !== 'completed') {
            api2004.SetValue('cmi.completion_status', 'incomplete');
          }
        },
      };
    }
    var api = findApi('API');
    if (!api) return null;
    return {
      start: function () {
        return api.LMSInitialize('');
      },
      get: function (key) {
        return api.LMSGetValue(key);
      },
      set: function (key, value) {
        return api.LMSSetValue(key, String(value));
      },
      commit: function () {
        return api.LMSCommit('');
      },
      finish: function () {
        return api.LMSFinish('');
      },
      learnerId: 'cmi.core.student_id',
      learnerName: 'cmi.core.student_name',
      language: 'cmi.student_preference.language',
      suspendData: 'cmi.suspend_data',
      writeResult: function (result) {
        api.LMSSetValue('cmi.core.exit', 'suspend');
        api.LMSSetValue('cmi.core.lesson_status', outcomeOf(result));
        api.LMSSetValue('cmi.core.score.min', '0');
        api.LMSSetValue('cmi.core.score.max', '100');
        api.LMSSetValue('cmi.core.score.raw', String(result.score));
        api.LMSSetValue('cmi.core.session_time', scorm12Time(result.duration_seconds || 0));
      },
      markStarted: function () {
        api.LMSSetValue('cmi.core.exit', 'suspend');
        var status = api.LMSGetValue('cmi.core.lesson_status');
        if (status === 'not attempted' || status === '') {
          api.LMSSetValue('cmi.core.lesson_status', 'incomplete');
        }
      },
    };
  }

  /** passed / failed for a finished session; incomplete for a cancel, a time-out, a lost headset. */
  function outcomeOf(result) {
    if (result.status !== 'completed' || result.success === null) return 'incomplete';
    return result.success ? 'passed' : 'failed';
  }

  function pad(number, width) {
    var text = String(number);
    while (text.length < width) text = '0' + text;
    return text;
  }

  /** SCORM 1.2's CMITimespan: HHHH:MM:SS. */
  function scorm12Time(seconds) {
    var s = Math.max(0, Math.round(seconds));
    return (
      pad(Math.floor(s / 3600), 4) +
      ':' +
      pad(Math.floor((s % 3600) / 60), 2) +
      ':' +
      pad(s % 60, 2)
    );
  }

  /** SCORM 2004's timeinterval (ISO 8601 duration). */
  function isoDuration(seconds) {
    var s = Math.max(0, Math.round(seconds));
    return 'PT' + Math.floor(s / 3600) + 'H' + Math.floor((s % 3600) / 60) + 'M' + (s % 60) + 'S';
  }

  // ---- The page ----------------------------------------------------------------------------

  var lms = null;
  var language = config.defaultLanguage === 'en' ? 'en' : 'ru';
  var learner = { id: '', name: '' };
  var token = null;
  var timer = null;
  var written = null; // the outcome last written, so a repeat poll writes nothing twice
  var finished = false;

  function text(key, values) {
    var value = TEXT[language][key];
    for (var name in values || {}) value = value.replace('{' + name + '}', values[name]);
    return value;
  }

  function $(id) {
    return document.getElementById(id);
  }

  function show(state) {
    $('message').textContent = state.message || '';
    $('message').className = state.tone || '';
    $('pin').hidden = !state.pin;
    $('pin').textContent = state.pin || '';
    $('detail').textContent = state.detail || '';
    $('again').hidden = !state.again;
  }

  function pickLanguage(preference) {
    var code = String(preference || '')
      .slice(0, 2)
      .toLowerCase();
    if (TEXT[code]) language = code;
    document.documentElement.lang = language;
    $('title').textContent = (config.title && (config.title[language] || config.title.ru)) || '';
    document.title = $('title').textContent;
    $('again').textContent = text('again');
  }

  function call(method, path, body) {
    var headers = {};
    if (body) headers['content-type'] = 'application/json';
    if (token) headers['x-lms-launch-token'] = token;
    return fetch(config.consoleUrl.replace(/\/$/, '') + path, {
      method: method,
      mode: 'cors',
      credentials: 'omit',
      headers: headers,
      body: body ? JSON.stringify(body) : undefined,
    }).then(function (response) {
      return response.json().then(function (json) {
        if (!response.ok) {
          var error = new Error(json && json.error);
          error.code = json && json.error;
          throw error;
        }
        return json;
      });
    });
  }

  function newLaunch() {
    clearTimeout(timer);
    token = null;
    written = null;
    show({ message: text('loading') });
    call('POST', '/v1/lms/launches', {
      package_key: config.packageKey,
      learner_id: learner.id,
      learner_name: learner.name || undefined,
    }).then(function (launch) {
      token = launch.launch_token;
      lms.set(lms.suspendData, JSON.stringify({ launch_token: token }));
      lms.commit();
      follow(launch);
    }, failed);
  }

  function failed(error) {
    show({
      message: text(error && error.code === 'lms_key_invalid' ? 'keyInvalid' : 'noConsole'),
      again: !(error && error.code === 'lms_key_invalid'),
    });
  }

  function poll(delay) {
    clearTimeout(timer);
    timer = setTimeout(function () {
      call('GET', '/v1/lms/launches/current').then(follow, function (error) {
        if (error && error.code === 'lms_key_invalid') return newLaunch();
        poll(delay); // the network came and went: keep following
      });
    }, delay);
  }

  function follow(launch) {
    if (launch.state === 'waiting') {
      var until = new Date(launch.pin_expires_at);
      show({
        message: text('waiting'),
        pin: launch.pin,
        detail: text('expires', { time: until.toLocaleTimeString(language) }),
      });
      return poll(POLL_MS);
    }
    if (launch.state === 'expired') return show({ message: text('expired'), again: true });
    if (launch.state === 'running') {
      show({ message: text('running') });
      return poll(POLL_MS);
    }
    report(launch.result);
  }

  function report(result) {
    var outcome = outcomeOf(result);
    if (written !== outcome + ':' + result.score && !finished) {
      lms.writeResult(result);
      lms.commit();
      written = outcome + ':' + result.score;
    }
    if (outcome === 'incomplete') {
      show({ message: text('incomplete'), tone: 'failed', again: true });
      return poll(LATE_POLL_MS);
    }
    show({
      message: text(outcome),
      tone: outcome,
      detail:
        text('score', {
          score: result.score,
          done: result.completed_tasks,
          max: result.max_tasks,
        }) +
        ' ' +
        text('saved'),
    });
    finish();
  }

  function finish() {
    if (finished || !lms) return;
    finished = true;
    clearTimeout(timer);
    lms.finish();
  }

  function savedToken() {
    try {
      return JSON.parse(lms.get(lms.suspendData) || '{}').launch_token || null;
    } catch {
      return null;
    }
  }

  function start() {
    lms = runtime();
    pickLanguage(null);
    if (!lms) return show({ message: text('noLms') });
    lms.start();
    pickLanguage(lms.get(lms.language));
    learner = { id: lms.get(lms.learnerId), name: lms.get(lms.learnerName) };
    lms.markStarted();
    $('again').addEventListener('click', newLaunch);
    window.addEventListener('pagehide', finish);
    token = savedToken();
    if (!token) return newLaunch();
    show({ message: text('loading') });
    // Reopened: the launch of last time, its result if it came meanwhile, else a new PIN.
    call('GET', '/v1/lms/launches/current').then(function (launch) {
      if (launch.state === 'expired') return newLaunch();
      follow(launch);
    }, newLaunch);
  }

  start();
})();
