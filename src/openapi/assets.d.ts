// Redoc's standalone bundle is imported as text (wrangler.toml [[rules]] type = "Text").
declare module 'redoc/bundles/redoc.standalone.js' {
  const source: string;
  export default source;
}

// The operator console's files (src/console/assets.ts), imported as text the same way.
declare module 'uplot/dist/uPlot.iife.min.js' {
  const source: string;
  export default source;
}
declare module 'uplot/dist/uPlot.min.css' {
  const source: string;
  export default source;
}
declare module '*.css' {
  const source: string;
  export default source;
}
declare module '*.js.txt' {
  const source: string;
  export default source;
}
