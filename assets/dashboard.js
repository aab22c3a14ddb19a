// Progressive enhancement only: every dashboard page works without it.
(function () {
  'use strict';
  // One submit per form: a second press of "Confirm refund" must not send a second request.
  document.querySelectorAll('form[method="post"]').forEach(function (form) {
    form.addEventListener('submit', function () {
      setTimeout(function () {
        form.querySelectorAll('button[type="submit"]').forEach(function (b) { b.disabled = true; });
      }, 0);
    });
  });
  // A copy button beside each secret key shown once.
  if (navigator.clipboard) {
    document.querySelectorAll('[data-copy]').forEach(function (code) {
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'button small copy';
      button.textContent = 'Copy';
      button.addEventListener('click', function () {
        navigator.clipboard.writeText(code.textContent.trim()).then(function () {
          button.textContent = 'Copied';
          setTimeout(function () { button.textContent = 'Copy'; }, 2000);
        });
      });
      code.insertAdjacentElement('afterend', button);
    });
  }
})();
