// Redoc's standalone bundle is imported as text (wrangler.toml [[rules]] type = "Text").
declare module 'redoc/bundles/redoc.standalone.js' {
  const source: string;
  export default source;
}
