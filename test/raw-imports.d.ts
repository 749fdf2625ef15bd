// Vite's `?raw` imports (used for the vendored API Pix document) and js-yaml's one used call.
declare module '*?raw' {
  const text: string;
  export default text;
}
declare module 'js-yaml' {
  export function load(text: string): unknown;
}
