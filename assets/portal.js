// Progressive enhancement only: the page works without it. Its words come from the page (data-*
// attributes, in the payer's language); in a Nepali page the countdown is in Devanagari digits.
(function () {
  'use strict';
  var nepali = document.documentElement.lang === 'ne';
  var digits = function (text) {
    return nepali ? text.replace(/[0-9]/g, function (d) { return String.fromCharCode(0x966 + Number(d)); }) : text;
  };
  var timer = document.querySelector('[data-expires-at]');
  if (timer) {
    var expiresAt = Date.parse(timer.getAttribute('data-expires-at'));
    var out = timer.querySelector('.time-left');
    var tick = function () {
      var left = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
      if (left === 0) { timer.textContent = timer.getAttribute('data-expired'); return; }
      // An hour or more: the server's "1 h 5 min" stands; under an hour, the minutes and seconds.
      if (left < 3600) out.textContent = digits(Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0'));
      setTimeout(tick, 1000);
    };
    tick();
  }
  // The hand-off to a provider that takes a form: posted at once (the button does it without script).
  var handoff = document.querySelector('form[data-auto-submit]');
  if (handoff) handoff.submit();
  var follow = document.querySelector('a[data-auto-follow]');
  if (follow) window.location.replace(follow.href);
  // A page that waits for a provider to say it is paid (Fonepay's QR): asks every two seconds which
  // page comes next, and goes there; without script the page's own button asks.
  var wait = document.querySelector('[data-wait-url]');
  if (wait) {
    var ask = function () {
      fetch(wait.getAttribute('data-wait-url'), { headers: { accept: 'application/json' }, cache: 'no-store' })
        .then(function (r) { return r.ok ? r.json() : {}; })
        .then(function (answer) { if (answer.next) window.location.replace(answer.next); else setTimeout(ask, 2000); })
        .catch(function () { setTimeout(ask, 2000); });
    };
    setTimeout(ask, 2000);
  }
  // One submit per form: disable the buttons while the request is on its way.
  document.querySelectorAll('form').forEach(function (form) {
    form.addEventListener('submit', function () {
      form.querySelectorAll('button').forEach(function (b) {
        b.disabled = true;
        if (b.hasAttribute('data-processing')) b.textContent = b.getAttribute('data-processing');
      });
    });
  });
})();
