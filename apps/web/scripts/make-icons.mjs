// Draws the web-app icons (public/icons/*.png) from the logo of public/favicon.svg with resvg:
// 192 and 512 px "any" icons (the rounded logo on transparent), a 512 px maskable icon (full-bleed
// night background, the logo inside the 80 % safe zone) and the 180 px apple-touch-icon.
// Run after changing the logo: node apps/web/scripts/make-icons.mjs (the PNGs are committed).
import fs from 'node:fs';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';

const out = path.resolve(import.meta.dirname, '../public/icons');
fs.mkdirSync(out, { recursive: true });
const mark = (x, y, s) =>
  `<g transform="translate(${x} ${y}) scale(${s / 32})"><rect width="32" height="32" rx="9" fill="url(#g)"/>` +
  `<path d="M16 6 25 11v10l-9 5-9-5V11z" fill="none" stroke="#fff" stroke-width="2" stroke-linejoin="round"/>` +
  `<path d="M16 16v10M16 16l9-5M16 16 7 11" stroke="#fff" stroke-width="1.6" stroke-opacity=".75"/></g>`;
const defs = '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7c6cff"/><stop offset="1" stop-color="#f5b942"/></linearGradient></defs>';
const any = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">${defs}${mark(0, 0, 512)}</svg>`;
// Maskable: the platform crops to any shape inside a circle of 80 % of the size; keep the mark in it.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">${defs}<rect width="512" height="512" fill="#0b0c1a"/>${mark(128, 128, 256)}</svg>`;
// iOS rounds the corners itself and shows transparency as black: a full square on night.
const apple = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">${defs}<rect width="512" height="512" fill="#0b0c1a"/>${mark(86, 86, 340)}</svg>`;
const render = (svg, size, name) => {
  const png = new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();
  fs.writeFileSync(path.join(out, name), png);
  console.log(name, png.length, 'bytes');
};
render(any, 192, 'icon-192.png');
render(any, 512, 'icon-512.png');
render(maskable, 512, 'icon-maskable-512.png');
render(apple, 180, 'apple-touch-icon.png');
