// Writes and cleans LanceDB tables for the tests of lance-maintenance (see LanceDbWriter.java).
// Reads one recipe as JSON on stdin, runs its steps in order in the working directory the caller
// chose (so that relative database paths are recorded as LanceDB records them), and prints one JSON
// document on stdout: the result of every step.
import * as lancedb from "@lancedb/lancedb";
import * as arrow from "apache-arrow";

const SCHEMA = new arrow.Schema([
  new arrow.Field("id", new arrow.Int64(), false),
  new arrow.Field("name", new arrow.Utf8(), false),
  new arrow.Field("score", new arrow.Float64(), false),
]);

let nextId = 0;

function rows(count) {
  const ids = [], names = [], scores = [];
  for (let i = 0; i < count; i++, nextId++) {
    ids.push(BigInt(nextId));
    names.push("name-" + (nextId % 7));
    scores.push(nextId * 0.5);
  }
  return arrow.makeTable({
    id: arrow.vectorFromArray(ids, new arrow.Int64()),
    name: arrow.vectorFromArray(names, new arrow.Utf8()),
    score: arrow.vectorFromArray(scores, new arrow.Float64()),
  });
}

async function readAll(stdin) {
  const chunks = [];
  for await (const chunk of stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

// Order-independent content of one version: row count and a sum of per-row FNV-1a hashes.
async function content(table) {
  const batches = await table.query().toArrow();
  let checksum = 0n;
  for (const row of batches) {
    const text = JSON.stringify(row.toJSON(), (k, v) => (typeof v === "bigint" ? v.toString() : v));
    let h = 0xcbf29ce484222325n;
    for (let i = 0; i < text.length; i++) {
      h ^= BigInt(text.charCodeAt(i));
      h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
    }
    checksum = (checksum + h) & 0xffffffffffffffffn;
  }
  return { rows: batches.numRows, checksum: checksum.toString() };
}

async function readOne(open) {
  try {
    const table = await open();
    const result = await content(table);
    for (const index of await table.listIndices()) {
      await table.indexStats(index.name);
    }
    return result;
  } catch (e) {
    return { error: String(e && e.message ? e.message : e) };
  }
}

// Every version of main, every tag and every version of every branch, read in full.
async function readBack(db, name) {
  const entries = {};
  const main = await db.openTable(name);
  for (const v of await main.listVersions()) {
    entries["main/v" + v.version] = await readOne(async () => {
      const t = await db.openTable(name);
      await t.checkout(v.version);
      return t;
    });
  }
  for (const tag of Object.keys(await (await main.tags()).list())) {
    entries["tag/" + tag] = await readOne(async () => {
      const t = await db.openTable(name);
      await t.checkout(tag);
      return t;
    });
  }
  const branches = await main.branches();
  for (const branch of Object.keys(await branches.list())) {
    const handle = await branches.checkout(branch);
    for (const v of await handle.listVersions()) {
      entries["branch/" + branch + "/v" + v.version] = await readOne(() => branches.checkout(branch, v.version));
    }
  }
  return entries;
}

async function onBranch(db, name, branch) {
  const main = await db.openTable(name);
  return branch ? (await main.branches()).checkout(branch) : main;
}

async function run(recipe) {
  const db = await lancedb.connect(recipe.db);
  const name = recipe.table;
  const results = [];
  for (const step of recipe.steps) {
    let table = null;
    const names = await db.tableNames();
    if (step.op !== "append" && step.op !== "pause" || names.includes(name)) {
      table = await onBranch(db, name, step.branch);
    }
    const result = { op: step.op };
    switch (step.op) {
      case "append":
        if (table === null) {
          table = await db.createTable(name, rows(step.rows), { schema: SCHEMA });
        } else {
          await table.add(rows(step.rows));
        }
        break;
      case "delete":
        await table.delete(step.where);
        break;
      case "update":
        await table.update({ where: step.where, values: { name: "'updated'" } });
        break;
      case "index":
        await table.createIndex(step.column, { config: lancedb.Index[step.kind](), replace: true });
        break;
      case "tag":
        await (await table.tags()).create(step.name, step.version);
        break;
      case "branch":
        table = await (await table.branches()).create(step.name, step.fromRef ?? "main", step.version);
        break;
      case "clone":
        // A shallow clone of a version of this table, named through the same relative path.
        await db.cloneTable(step.target, recipe.db + "/" + name + ".lance", { sourceVersion: step.version, isShallow: true });
        break;
      case "overwrite":
        await db.createTable(name, rows(step.rows), { schema: SCHEMA, mode: "overwrite" });
        table = await onBranch(db, name, step.branch);
        break;
      case "compact":
        // Until nothing is left to merge (one pass can leave fragments to merge), so that a later
        // optimize() is a pure cleanup. The default prune threshold (7 days) removes nothing here.
        for (let pass = 0; pass < 5; pass++) {
          result.stats = await table.optimize();
          if (result.stats.compaction.fragmentsRemoved === 0) break;
        }
        break;
      case "cleanup": {
        const before = await table.version();
        result.stats = await table.optimize({
          cleanupOlderThan: new Date(step.olderThan), deleteUnverified: step.deleteUnverified ?? false });
        table = await onBranch(db, name, step.branch);
        result.compacted = (await table.version()) !== before;
        break;
      }
      case "readBack":
        result.entries = await readBack(db, name);
        break;
      case "read":
        // Named versions ({branch: null|name, version}), each read in full: the kept-manifest check.
        result.entries = {};
        for (const ref of step.refs) {
          const key = (ref.branch ? "branch/" + ref.branch : "main") + "/v" + ref.version;
          result.entries[key] = await readOne(async () => {
            const main = await db.openTable(name);
            if (ref.branch) return (await main.branches()).checkout(ref.branch, ref.version);
            await main.checkout(ref.version);
            return main;
          });
        }
        break;
      case "pause":
        // Lets the clock pass a cutoff taken after the previous commit.
        await new Promise((resolve) => setTimeout(resolve, step.millis));
        break;
      default:
        throw new Error("unknown step " + step.op);
    }
    if (table !== null) {
      const versions = await table.listVersions();
      const latest = versions[versions.length - 1];
      result.version = latest.version;
      result.timestampMillis = latest.timestamp.getTime();
    }
    results.push(result);
  }
  return results;
}

const recipe = await readAll(process.stdin);
try {
  const results = await run(recipe);
  process.stdout.write(JSON.stringify({ results }, (k, v) => (typeof v === "bigint" ? v.toString() : v)));
} catch (e) {
  process.stdout.write(JSON.stringify({ error: String(e && e.stack ? e.stack : e) }));
  process.exitCode = 1;
}
