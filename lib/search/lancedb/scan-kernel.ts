/**
 * The scan kernel (scan-kernel.wat, compiled): vector-scan.ts's column scan in WebAssembly SIMD, two rows per
 * instruction, bit-identical to the JavaScript loop (the same double-precision products and additions in the same
 * order). the probe of the IVF lists is most of a hybrid query's time at 10x the demo corpus, and the
 * JavaScript loop does one row per operation. The columns live in the kernel's own memory (one WebAssembly.Memory per
 * VectorColumns, freed with it), beside the scratch sums and the query's components.
 */

/** scan-kernel.wat compiled by wabt 1.0.39 (the command is in the .wat file; wabt is not a dependency). */
const KERNEL_BASE64 =
  "AGFzbQEAAAABDAFgCH9/f39/f39/AAIPAQNlbnYGbWVtb3J5AgABAwIBAAcIAQRzY2FuAAAKuQsBtgsGA38BewF8CH8IewJ/IAUgBkEDdGpBACAHIAZrQQN0/AsAIAFBAnQhHSAHIAcgBmtBAXFrIR5BACEIAkADQCAIQQhqIARKDQEgACACIAhBAnRqKAIAIB1saiENIAAgAiAIQQJ0aigCBCAdbGohDiAAIAIgCEECdGooAgggHWxqIQ8gACACIAhBAnRqKAIMIB1saiEQIAAgAiAIQQJ0aigCECAdbGohESAAIAIgCEECdGooAhQgHWxqIRIgACACIAhBAnRqKAIYIB1saiETIAAgAiAIQQJ0aigCHCAdbGohFCADIAhBA3RqKwMA/RQhFSADIAhBA3RqKwMI/RQhFiADIAhBA3RqKwMQ/RQhFyADIAhBA3RqKwMY/RQhGCADIAhBA3RqKwMg/RQhGSADIAhBA3RqKwMo/RQhGiADIAhBA3RqKwMw/RQhGyADIAhBA3RqKwM4/RQhHCAGIQkCQANAIAkgHk4NASAFIAlBA3RqIQogCv0ABAAhCyALIA0gCUECdGr9XQMA/V8gFf3yAf3wASELIAsgDiAJQQJ0av1dAwD9XyAW/fIB/fABIQsgCyAPIAlBAnRq/V0DAP1fIBf98gH98AEhCyALIBAgCUECdGr9XQMA/V8gGP3yAf3wASELIAsgESAJQQJ0av1dAwD9XyAZ/fIB/fABIQsgCyASIAlBAnRq/V0DAP1fIBr98gH98AEhCyALIBMgCUECdGr9XQMA/V8gG/3yAf3wASELIAsgFCAJQQJ0av1dAwD9XyAc/fIB/fABIQsgCiAL/QsEACAJQQJqIQkMAAsLIAkgB0gEQCAFIAlBA3RqIQogCisDACEMIAwgDSAJQQJ0aioCALsgFf0hAKKgIQwgDCAOIAlBAnRqKgIAuyAW/SEAoqAhDCAMIA8gCUECdGoqAgC7IBf9IQCioCEMIAwgECAJQQJ0aioCALsgGP0hAKKgIQwgDCARIAlBAnRqKgIAuyAZ/SEAoqAhDCAMIBIgCUECdGoqAgC7IBr9IQCioCEMIAwgEyAJQQJ0aioCALsgG/0hAKKgIQwgDCAUIAlBAnRqKgIAuyAc/SEAoqAhDCAKIAw5AwALIAhBCGohCAwACwsCQANAIAhBBGogBEoNASAAIAIgCEECdGooAgAgHWxqIQ0gACACIAhBAnRqKAIEIB1saiEOIAAgAiAIQQJ0aigCCCAdbGohDyAAIAIgCEECdGooAgwgHWxqIRAgAyAIQQN0aisDAP0UIRUgAyAIQQN0aisDCP0UIRYgAyAIQQN0aisDEP0UIRcgAyAIQQN0aisDGP0UIRggBiEJAkADQCAJIB5ODQEgBSAJQQN0aiEKIAr9AAQAIQsgCyANIAlBAnRq/V0DAP1fIBX98gH98AEhCyALIA4gCUECdGr9XQMA/V8gFv3yAf3wASELIAsgDyAJQQJ0av1dAwD9XyAX/fIB/fABIQsgCyAQIAlBAnRq/V0DAP1fIBj98gH98AEhCyAKIAv9CwQAIAlBAmohCQwACwsgCSAHSARAIAUgCUEDdGohCiAKKwMAIQwgDCANIAlBAnRqKgIAuyAV/SEAoqAhDCAMIA4gCUECdGoqAgC7IBb9IQCioCEMIAwgDyAJQQJ0aioCALsgF/0hAKKgIQwgDCAQIAlBAnRqKgIAuyAY/SEAoqAhDCAKIAw5AwALIAhBBGohCAwACwsCQANAIAggBE4NASAAIAIgCEECdGooAgAgHWxqIQ0gAyAIQQN0aisDAP0UIRUgBiEJAkADQCAJIB5ODQEgBSAJQQN0aiEKIAr9AAQAIQsgCyANIAlBAnRq/V0DAP1fIBX98gH98AEhCyAKIAv9CwQAIAlBAmohCQwACwsgCSAHSARAIAUgCUEDdGohCiAKKwMAIQwgDCANIAlBAnRqKgIAuyAV/SEAoqAhDCAKIAw5AwALIAhBAWohCAwACwsL";

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
