// Starts Swagger UI on the service's own OpenAPI document. A file, not an inline script: the pages' content
// security policy runs scripts from the service only. The server-rendered reference stays for readers without
// scripts and is hidden once the interactive one is drawn.
(function () {
  'use strict';
  var root = document.getElementById('swagger-ui');
  if (!root || typeof window.SwaggerUIBundle !== 'function') return;
  window.ui = window.SwaggerUIBundle({
    url: root.getAttribute('data-openapi'),
    domNode: root,
    deepLinking: true,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    // No call to validator.swagger.io: nothing leaves the service.
    validatorUrl: null,
    onComplete: function () {
      var reference = document.getElementById('reference');
      if (reference) reference.hidden = true;
    },
  });
})();
