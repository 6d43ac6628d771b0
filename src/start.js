// Entry point. Plain JavaScript so that an old Node.js reaches this check instead of failing on TypeScript:
// the server runs its .ts sources through Node's built-in type stripping (Node >= 22.18).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    `Node.js ${process.versions.node} is too old: this server needs Node.js >= 22.18. ` +
      'Start it with `npm start`, which runs the Node 22 installed with the project (the node@22 dependency).',
  );
  process.exit(1);
}
await import('./main.ts');
