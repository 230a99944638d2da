// Side-effect imports of the console's stylesheets (main.tsx), bundled by esbuild: TypeScript 7
// checks that a side-effect import resolves, and a stylesheet has no types of its own.
declare module "*.css";
