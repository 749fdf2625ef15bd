/**
 * The console's static files, served by the Worker itself (no CDN, like /docs): uPlot from npm and
 * the page's own script and stylesheet. wrangler.toml's [[rules]] import them as text.
 */

import uplotJs from 'uplot/dist/uPlot.iife.min.js';
import uplotCss from 'uplot/dist/uPlot.min.css';
import consoleCss from './assets/console.css';
import consoleJs from './assets/console.js.txt';

export const ASSETS: Record<string, { body: string; type: string }> = {
  'uplot.js': { body: uplotJs, type: 'text/javascript; charset=utf-8' },
  'uplot.css': { body: uplotCss, type: 'text/css; charset=utf-8' },
  'console.js': { body: consoleJs, type: 'text/javascript; charset=utf-8' },
  'console.css': { body: consoleCss, type: 'text/css; charset=utf-8' },
};
