// The `target_features` custom section of a wasm module: which features
// the linked objects were compiled with. wasm-bindgen reads it to decide
// whether to use an externref table (when it lists reference-types), and
// wasm-opt to decide which features it may use.
//
// The crate is compiled without reference-types (scripts/build.mjs), but
// Rust's prebuilt standard library still declares it, so the section says
// `+reference-types`: wasm-bindgen would then look for externref functions
// that our build does not have. `withoutTargetFeature` removes the entry,
// so that the section describes the code we ship.

/** An unsigned LEB128 at `bytes[i]`: `[value, next index]`. */
function readLeb(bytes, i) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[i++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, i];
  }
}

function leb(value) {
  const out = [];
  do {
    let b = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) b |= 0x80;
    out.push(b);
  } while (value > 0);
  return Buffer.from(out);
}

const name = (bytes, i) => {
  const [length, start] = readLeb(bytes, i);
  return [bytes.subarray(start, start + length).toString('utf8'), start + length];
};

/**
 * The sections of `bytes` (a Buffer): `{id, name, start, end, body}` with
 * `name` for custom sections (id 0) and `body` after the name.
 */
export function sections(bytes) {
  if (bytes.readUInt32LE(0) !== 0x6d736100) throw new Error('not a wasm module');
  const out = [];
  let i = 8;
  while (i < bytes.length) {
    const start = i;
    const id = bytes[i];
    const [size, body] = readLeb(bytes, i + 1);
    const end = body + size;
    if (id === 0) {
      const [n, after] = name(bytes, body);
      out.push({ id, name: n, start, end, body: after });
    } else {
      out.push({ id, start, end, body });
    }
    i = end;
  }
  return out;
}

/** The `target_features` entries: `[{prefix: '+'|'-'|'=', feature}]` (none without the section). */
export function targetFeatures(bytes) {
  const s = sections(bytes).find((x) => x.name === 'target_features');
  if (!s) return [];
  let [count, i] = readLeb(bytes, s.body);
  const out = [];
  while (count-- > 0) {
    const prefix = String.fromCharCode(bytes[i]);
    const [feature, next] = name(bytes, i + 1);
    out.push({ prefix, feature });
    i = next;
  }
  return out;
}

/** `bytes` with `feature` dropped from the `target_features` section. */
export function withoutTargetFeature(bytes, feature) {
  const parts = [bytes.subarray(0, 8)];
  for (const s of sections(bytes)) {
    if (s.name !== 'target_features') {
      parts.push(bytes.subarray(s.start, s.end));
      continue;
    }
    const kept = targetFeatures(bytes).filter((f) => f.feature !== feature);
    const entries = kept.map((f) => Buffer.concat([Buffer.from(f.prefix), leb(Buffer.byteLength(f.feature)), Buffer.from(f.feature)]));
    const body = Buffer.concat([leb(Buffer.byteLength(s.name)), Buffer.from(s.name), leb(kept.length), ...entries]);
    parts.push(Buffer.from([0]), leb(body.length), body);
  }
  return Buffer.concat(parts);
}
