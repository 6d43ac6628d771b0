/**
 * The play page's logic (src/web/play/lib/) and the shared label layout run under Node as well as in a browser: they
 * never touch the DOM or the page's storage, which the ui/ modules own. This is what lets test/web/ run them.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { WEB_DIR } from '../../src/http/web-files.ts';

const DOM = /\b(?:document|window|localStorage|sessionStorage|location|navigator|requestAnimationFrame|HTMLElement|HTMLCanvasElement|CanvasRenderingContext2D|addEventListener)\b/;

function code(file: string): string {
  return strip(fs.readFileSync(file, 'utf8'));
}

/** The code outside comments and string literals. */
function strip(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1').replace(/'[^'\n]*'|`[^`]*`/g, "''");
}

describe('play page: logic modules without the DOM', () => {
  const lib = path.join(WEB_DIR, 'play', 'lib');
  const files = [...fs.readdirSync(lib).map((name) => path.join(lib, name)), path.join(WEB_DIR, 'shared', 'labels.js')];

  it('finds the logic modules', () => assert.ok(files.length >= 10, files.join(', ')));

  it('none of them names a browser-only global', () => {
    const offenders = files.filter((file) => DOM.test(code(file))).map((file) => path.relative(WEB_DIR, file));
    assert.deepEqual(offenders, []);
  });

  it('the check sees a DOM access and ignores comments and strings', () => {
    assert.ok(DOM.test(code(path.join(WEB_DIR, 'play', 'ui', 'menu.js'))));
    assert.ok(!DOM.test(strip("const note = 'the document'; // document.title\n/* window */")));
    assert.ok(DOM.test(strip('const w = window.innerWidth;')));
  });
});
