// The device page's optional wallet sign-in: shown only when the browser has an EIP-1193
// provider (window.ethereum). The server writes the SIWE message; the wallet signs it; the
// signed message goes back as a plain form post, like the email sign-in.
(function () {
  'use strict';
  var form = document.getElementById('wallet-form');
  var eth = window.ethereum;
  if (!form || !eth || typeof eth.request !== 'function') return;
  form.classList.remove('hidden');
  var button = document.getElementById('wallet-button');
  var status = document.getElementById('wallet-status');

  function say(text) {
    status.textContent = text;
    status.classList.remove('hidden');
  }

  function hex(text) {
    var bytes = new TextEncoder().encode(text);
    var out = '0x';
    for (var i = 0; i < bytes.length; i++) out += bytes[i].toString(16).padStart(2, '0');
    return out;
  }

  // The message is several lines: it travels in a textarea, as an input's value would lose its line breaks.
  function input(name) {
    return form.querySelector('[name="' + name + '"]');
  }

  button.addEventListener('click', async function () {
    button.disabled = true;
    say('Waiting for the wallet...');
    try {
      var accounts = await eth.request({ method: 'eth_requestAccounts' });
      var address = accounts && accounts[0];
      if (!address) throw new Error('the wallet shared no account');
      var chainId = parseInt(await eth.request({ method: 'eth_chainId' }), 16);
      var res = await fetch('/device/wallet/message', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ csrf: input('csrf').value, address: address, chainId: chainId }),
      });
      if (!res.ok) throw new Error('the server could not prepare a message (' + res.status + ')');
      var message = (await res.json()).message;
      var signature = await eth.request({ method: 'personal_sign', params: [hex(message), address] });
      input('message').value = message;
      input('signature').value = signature;
      var typed = document.getElementById('code');
      if (typed) input('code').value = typed.value;
      form.submit();
    } catch (err) {
      say('Wallet sign-in failed: ' + (err && err.message ? err.message : String(err)));
      button.disabled = false;
    }
  });
})();
