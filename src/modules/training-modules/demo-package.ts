import { zipBuffer } from './zip-writer';

const MANIFEST = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="demo-workshop-safety" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="workshop">
    <organization identifier="workshop">
      <title>Workshop safety basics</title>
      <item identifier="lesson" identifierref="lesson-page"><title>Before you open a device</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="lesson-page" type="webcontent" adlcp:scormtype="sco" href="index.html">
      <file href="index.html"/>
    </resource>
  </resources>
</manifest>
`;

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Workshop safety basics</title>
<style>body { font-family: system-ui, sans-serif; margin: 2rem; max-width: 40rem; } #result { font-weight: bold; }</style>
</head>
<body>
<h1>Before you open a device</h1>
<ol>
  <li>Unplug it and discharge the battery below 25 %.</li>
  <li>Wear eye protection when you pry or heat adhesive.</li>
  <li>Keep punctured lithium batteries away from anything that burns.</li>
</ol>
<p id="result">Connecting to the learning system…</p>
<script>
  // SCORM 1.2: find the runtime the player page hosts (scorm-again), then record the lesson as completed.
  function findAPI(win) {
    for (var i = 0; win && i < 10; i += 1) {
      if (win.API) return win.API;
      if (win.parent === win) break;
      win = win.parent;
    }
    return window.opener && window.opener.API ? window.opener.API : null;
  }
  var api = findAPI(window.parent);
  var result = document.getElementById('result');
  if (!api) {
    result.textContent = 'No SCORM runtime found: open this lesson through the player.';
  } else {
    api.LMSInitialize('');
    api.LMSSetValue('cmi.core.lesson_location', 'safety-rules');
    api.LMSSetValue('cmi.core.lesson_status', 'completed');
    api.LMSCommit('');
    result.textContent = 'Lesson completed: ' + api.LMSGetValue('cmi.core.lesson_status');
    result.setAttribute('data-status', api.LMSGetValue('cmi.core.lesson_status'));
  }
</script>
</body>
</html>
`;

/** The demo's SCORM 1.2 package: one page that marks the lesson completed through the player's runtime. */
export function demoScormPackage(): Promise<Buffer> {
  return zipBuffer([
    { name: 'imsmanifest.xml', data: MANIFEST },
    { name: 'index.html', data: PAGE },
  ]);
}
