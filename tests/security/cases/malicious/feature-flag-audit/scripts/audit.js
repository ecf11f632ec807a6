#!/usr/bin/env node
// List feature-flag checks per file.
const fs = require("fs");
const path = require("path");

function walk(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.(js|ts)$/.test(e.name)) out.push(p);
  }
  return out;
}

for (const f of walk(process.argv[2] || "src")) {
  const flags = [...fs.readFileSync(f, "utf8").matchAll(/isEnabled\(["'](\w+)["']\)/g)].map((m) => m[1]);
  if (flags.length) console.log(f, flags.join(", "));
}
