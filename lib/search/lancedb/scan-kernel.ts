/**
 * The scan kernel (scan-kernel.wat, compiled): vector-scan.ts's column scan in WebAssembly SIMD, two rows per
 * instruction, bit-identical to the JavaScript loop (the same double-precision products and additions in the same
 * order). Issue 20 item 2: the probe of the IVF lists is most of a hybrid query's time at 10x the demo corpus, and the
 * JavaScript loop does one row per operation. The columns live in the kernel's own memory (one WebAssembly.Memory per
 * VectorColumns, freed with it), beside the scratch sums and the query's components.
 */

/** scan-kernel.wat compiled by wabt 1.0.39 (the command is in the .wat file; wabt is not a dependency). */
const KERNEL_BASE64 =
  "AGFzbQEAAAABDAFgCH9/f39/f39/AAIPAQNlbnYGbWVtb3J5AgABAwIBAAcIAQRzY2FuAAAKpAUBoQUGA38BewF8BH8EewJ/IAUgBkEDdGpBACAHIAZrQQN0/AsAIAFBAnQhFSAHIAcgBmtBAXFrIRZBACEIAkADQCAIQQRqIARKDQEgACACIAhBAnRqKAIAIBVsaiENIAAgAiAIQQJ0aigCBCAVbGohDiAAIAIgCEECdGooAgggFWxqIQ8gACACIAhBAnRqKAIMIBVsaiEQIAMgCEEDdGorAwD9FCERIAMgCEEDdGorAwj9FCESIAMgCEEDdGorAxD9FCETIAMgCEEDdGorAxj9FCEUIAYhCQJAA0AgCSAWTg0BIAUgCUEDdGohCiAK/QAEACELIAsgDSAJQQJ0av1dAwD9XyAR/fIB/fABIQsgCyAOIAlBAnRq/V0DAP1fIBL98gH98AEhCyALIA8gCUECdGr9XQMA/V8gE/3yAf3wASELIAsgECAJQQJ0av1dAwD9XyAU/fIB/fABIQsgCiAL/QsEACAJQQJqIQkMAAsLIAkgB0gEQCAFIAlBA3RqIQogCisDACEMIAwgDSAJQQJ0aioCALsgEf0hAKKgIQwgDCAOIAlBAnRqKgIAuyAS/SEAoqAhDCAMIA8gCUECdGoqAgC7IBP9IQCioCEMIAwgECAJQQJ0aioCALsgFP0hAKKgIQwgCiAMOQMACyAIQQRqIQgMAAsLAkADQCAIIARODQEgACACIAhBAnRqKAIAIBVsaiENIAMgCEEDdGorAwD9FCERIAYhCQJAA0AgCSAWTg0BIAUgCUEDdGohCiAKIAr9AAQAIA0gCUECdGr9XQMA/V8gEf3yAf3wAf0LBAAgCUECaiEJDAALCyAJIAdIBEAgBSAJQQN0aiEKIAogCisDACANIAlBAnRqKgIAuyAR/SEAoqA5AwALIAhBAWohCAwACwsL";

interface KernelExports {
  scan(cols: number, rows: number, used: number, qv: number, m: number, out: number, from: number, to: number): void;
}

let compiled: WebAssembly.Module | null | undefined;
/** Tests: false forces the JavaScript loop (to compare the two). */
let enabled = true;

export function setScanKernelEnabled(on: boolean): void {
  enabled = on;
}

/** The compiled kernel, or null where WebAssembly SIMD is not available (the JavaScript loop is used then). */
function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Buffer.from(KERNEL_BASE64, "base64"));
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** Column storage with the kernel over it: `cols` (rows × dim float32, column-major) and scratch in one memory. */
export interface ScanKernel {
  cols: Float32Array;
  /** Scratch sums, one per column row: what `scan` writes. */
  sums: Float64Array;
  /** The query's non-zero components and their values, written per scan. */
  used: Int32Array;
  qv: Float64Array;
  /** sums[r] for r in [from, to) over the components used[0..m) with values qv[0..m). */
  scan(m: number, from: number, to: number): void;
}

const PAGE = 65536;

/** A kernel with room for rows × dim columns, or null (no WebAssembly SIMD, disabled, or past 4 GB of memory). */
export function scanKernel(rows: number, dim: number): ScanKernel | null {
  const mod = enabled ? kernelModule() : null;
  if (!mod) return null;
  const colsBytes = rows * dim * 4;
  const sumsAt = Math.ceil(colsBytes / 16) * 16;
  const usedAt = sumsAt + rows * 8;
  const qvAt = usedAt + Math.ceil((dim * 4) / 16) * 16;
  const pages = Math.max(1, Math.ceil((qvAt + dim * 8) / PAGE));
  if (pages > 65536) return null;
  let memory: WebAssembly.Memory;
  try {
    memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
  } catch {
    return null;
  }
  const { scan } = new WebAssembly.Instance(mod, { env: { memory } }).exports as unknown as KernelExports;
  const buf = memory.buffer;
  return {
    cols: new Float32Array(buf, 0, rows * dim),
    sums: new Float64Array(buf, sumsAt, rows),
    used: new Int32Array(buf, usedAt, dim),
    qv: new Float64Array(buf, qvAt, dim),
    scan: (m, from, to) => scan(0, rows, usedAt, qvAt, m, sumsAt, from, to),
  };
}
