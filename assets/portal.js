// Progressive enhancement only: the page works without it.
(function () {
  'use strict';
  var timer = document.querySelector('[data-expires-at]');
  if (timer) {
    var expiresAt = Date.parse(timer.getAttribute('data-expires-at'));
    var out = timer.querySelector('.time-left');
    var tick = function () {
      var left = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
      var m = Math.floor(left / 60);
      out.textContent = m >= 60 ? Math.floor(m / 60) + ' h ' + (m % 60) + ' min' : m + ':' + String(left % 60).padStart(2, '0');
      if (left === 0) { timer.textContent = 'This payment link has expired.'; return; }
      setTimeout(tick, 1000);
    };
    tick();
  }
  // The hand-off to a provider that takes a form: posted at once (the button does it without script).
  var handoff = document.querySelector('form[data-auto-submit]');
  if (handoff) handoff.submit();
  var follow = document.querySelector('a[data-auto-follow]');
  if (follow) window.location.replace(follow.href);
  // One submit per form: disable the buttons while the request is on its way.
  document.querySelectorAll('form').forEach(function (form) {
    form.addEventListener('submit', function () {
      form.querySelectorAll('button').forEach(function (b) {
        b.disabled = true;
        if (b.classList.contains('primary')) b.textContent = 'Processing…';
      });
    });
  });
})();
