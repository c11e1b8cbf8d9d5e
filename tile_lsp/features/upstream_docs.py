"""One-line descriptions of upstream gpu / nvgpu / nvvm ops (and a few common std ops) for
hover, in our own words: what the op computes or orders, stated as facts.
"""

from __future__ import annotations

import re

_GPU = {
    "gpu.all_reduce": "Reduces a value over all work items of the workgroup; every item gets the result.",
    "gpu.alloc": "Allocates a memref on the device (host-side op; optionally async).",
    "gpu.barrier": "Workgroup-wide barrier: waits until every thread of the block reaches it; "
    "shared-memory writes before it are visible after it (PTX bar.sync 0).",
    "gpu.block_dim": "Number of threads of the block along one dimension (PTX %ntid).",
    "gpu.block_id": "Index of the block within the grid along one dimension (PTX %ctaid).",
    "gpu.cluster_block_id": "Index of the block within its cluster along one dimension (PTX %cluster_ctaid).",
    "gpu.cluster_dim": "Number of clusters of the grid along one dimension (PTX %nclusterid).",
    "gpu.cluster_dim_blocks": "Number of blocks of a cluster along one dimension (PTX %cluster_nctaid).",
    "gpu.cluster_id": "Index of the cluster within the grid along one dimension (PTX %clusterid).",
    "gpu.dealloc": "Frees a memref allocated by gpu.alloc (host-side op).",
    "gpu.dynamic_shared_memory": "The base of the kernel's dynamically sized shared memory, as a memref of i8.",
    "gpu.func": "A function of a gpu.module; with `kernel` it is a launchable entry point (a PTX .entry).",
    "gpu.global_id": "Global thread index along one dimension: block_id * block_dim + thread_id.",
    "gpu.grid_dim": "Number of blocks of the grid along one dimension (PTX %nctaid).",
    "gpu.host_register": "Makes a host memref accessible to the device (host-side op).",
    "gpu.host_unregister": "Undoes gpu.host_register (host-side op).",
    "gpu.lane_id": "Index of the thread within its warp, 0..31 (PTX %laneid).",
    "gpu.launch": "Launches the enclosed region as a kernel with the given grid and block sizes (host side).",
    "gpu.launch_func": "Launches a gpu.func kernel of a gpu.module with the given grid and block sizes (host side).",
    "gpu.memcpy": "Copies between two memrefs, host or device (host-side op).",
    "gpu.module": "A module of device code; compiled for the targets attached to it.",
    "gpu.num_subgroups": "Number of subgroups (warps) in the workgroup.",
    "gpu.printf": "Device-side formatted print (lowers to vprintf).",
    "gpu.return": "Returns from a gpu.func.",
    "gpu.rotate": "Rotates a value across the lanes of a subgroup by a constant offset.",
    "gpu.set_default_device": "Selects the device later gpu ops run on (host-side op).",
    "gpu.shuffle": "Exchanges a value between the lanes of a warp (xor, up, down or idx mode); "
    "also returns whether the source lane was valid (PTX shfl.sync).",
    "gpu.subgroup_id": "Index of the subgroup (warp) within the workgroup.",
    "gpu.subgroup_reduce": "Reduces a value over the lanes of a subgroup (warp).",
    "gpu.subgroup_size": "Number of work items in a subgroup (32 on NVIDIA GPUs).",
    "gpu.terminator": "Ends the body of gpu.launch.",
    "gpu.thread_id": "Index of the thread within its block along one dimension (PTX %tid).",
    "gpu.wait": "Waits for asynchronous gpu tokens (host-side op).",
    "gpu.yield": "Yields values from a gpu region (e.g. the body of gpu.all_reduce).",
}

_NVGPU = {
    "nvgpu.cvt_fpext": "Widens packed small floats (e.g. fp8) to a larger float type.",
    "nvgpu.cvt_fptrunc": "Narrows floats to packed small floats (e.g. fp8) with rounding.",
    "nvgpu.device_async_copy": "Asynchronous copy of a few elements from global to shared memory (PTX cp.async, sm_80+).",
    "nvgpu.device_async_create_group": "Closes the pending async copies into one group and returns its token "
    "(PTX cp.async.commit_group).",
    "nvgpu.device_async_wait": "Waits until at most N async copy groups are still pending (PTX cp.async.wait_group).",
    "nvgpu.fma.packed.f32x2": "Fused multiply-add on two packed f32 lanes at once.",
    "nvgpu.ldmatrix": "Warp-collective load of 8x8 matrix tiles from shared memory into registers (PTX ldmatrix).",
    "nvgpu.mbarrier.arrive": "Arrives on a shared-memory mbarrier and returns its phase token.",
    "nvgpu.mbarrier.arrive.expect_tx": "Arrives on an mbarrier and adds the number of bytes the current phase "
    "still waits for (asynchronous transactions such as TMA loads).",
    "nvgpu.mbarrier.arrive.nocomplete": "Arrives on an mbarrier without being able to complete the current phase.",
    "nvgpu.mbarrier.create": "Creates a group of mbarrier objects in shared memory.",
    "nvgpu.mbarrier.init": "Initialises an mbarrier with its expected arrival count.",
    "nvgpu.mbarrier.test.wait": "Tests (without blocking) whether an mbarrier phase has completed.",
    "nvgpu.mbarrier.try_wait.parity": "Waits until the mbarrier phase of the given parity has completed.",
    "nvgpu.mma.sp.sync": "Warp-level matrix multiply-accumulate with a 2:4 sparse A operand (PTX mma.sp).",
    "nvgpu.mma.sync": "Warp-level matrix multiply-accumulate on register fragments (PTX mma.sync).",
    "nvgpu.mul.packed.f32x2": "Multiplies two packed f32 lanes at once.",
    "nvgpu.rcp": "Reciprocal, approximate or exact depending on its attributes.",
    "nvgpu.tma.async.load": "Tensor Memory Accelerator copy of a tile from global to shared memory, completing "
    "on an mbarrier (PTX cp.async.bulk.tensor, sm_90+).",
    "nvgpu.tma.async.store": "Tensor Memory Accelerator copy of a tile from shared to global memory.",
    "nvgpu.tma.create.descriptor": "Builds a TMA tensor-map descriptor for a global memref (host side).",
    "nvgpu.tma.fence.descriptor": "Fences a TMA descriptor that was modified in memory before it is used.",
    "nvgpu.tma.prefetch.descriptor": "Prefetches a TMA descriptor into the cache.",
    "nvgpu.warpgroup.generate.descriptor": "Builds the shared-memory matrix descriptor wgmma reads an operand through.",
    "nvgpu.warpgroup.mma": "Warpgroup (4 warps) matrix multiply-accumulate from shared-memory descriptors "
    "(PTX wgmma.mma_async, sm_90a).",
    "nvgpu.warpgroup.mma.init.accumulator": "Creates a zero-filled warpgroup accumulator fragment.",
    "nvgpu.warpgroup.mma.store": "Stores a warpgroup accumulator fragment to a memref.",
}

_NVVM = {
    "nvvm.bar.warp.sync": "Synchronises the warp lanes named by a mask (PTX bar.warp.sync).",
    "nvvm.barrier": "CTA barrier on a barrier id, optionally with a thread count (PTX barrier.sync).",
    "nvvm.barrier.arrive": "Arrives at a CTA barrier without waiting (PTX barrier.arrive).",
    "nvvm.barrier0": "CTA-wide barrier on barrier 0 (PTX bar.sync 0).",
    "nvvm.breakpoint": "Suspends execution for a debugger (PTX brkpt).",
    "nvvm.cluster.arrive": "Arrives at the cluster barrier (PTX barrier.cluster.arrive, sm_90+).",
    "nvvm.cluster.arrive.relaxed": "Arrives at the cluster barrier without memory ordering (sm_90+).",
    "nvvm.cluster.wait": "Waits for all threads of the cluster to arrive (PTX barrier.cluster.wait, sm_90+).",
    "nvvm.convert.f16x2.to.f8x2": "Converts two f16 values to two packed 8-bit floats (e4m3 or e5m2) (PTX cvt).",
    "nvvm.convert.f32x2.to.bf16x2": "Converts two f32 values to two packed bf16 values (PTX cvt).",
    "nvvm.convert.f32x2.to.f16x2": "Converts two f32 values to two packed f16 values (PTX cvt).",
    "nvvm.convert.f32x2.to.f8x2": "Converts two f32 values to two packed 8-bit floats (PTX cvt).",
    "nvvm.convert.f8x2.to.bf16x2": "Converts two packed 8-bit floats to two bf16 values (PTX cvt).",
    "nvvm.convert.f8x2.to.f16x2": "Converts two packed 8-bit floats to two f16 values (PTX cvt).",
    "nvvm.convert.float.to.tf32": "Rounds an f32 value to tf32 (19 significant bits), kept in a 32-bit register (PTX cvt.tf32).",
    "nvvm.cp.async.bulk.commit.group": "Commits the pending bulk async copies into a group.",
    "nvvm.cp.async.bulk.tensor.global.shared.cta": "TMA store of a tile from shared to global memory (sm_90+).",
    "nvvm.cp.async.bulk.tensor.prefetch": "TMA prefetch of a tile of global memory into L2 (sm_90+).",
    "nvvm.cp.async.bulk.tensor.shared.cluster.global": "TMA load of a tile from global to shared memory, "
    "completing on an mbarrier (sm_90+).",
    "nvvm.cp.async.bulk.wait_group": "Waits until at most N bulk async copy groups are pending.",
    "nvvm.cp.async.commit.group": "Commits the pending cp.async copies into a group (sm_80+).",
    "nvvm.cp.async.mbarrier.arrive": "Makes an mbarrier track completion of this thread's cp.async copies.",
    "nvvm.cp.async.shared.global": "Asynchronous copy of 4, 8 or 16 bytes from global to shared memory (sm_80+).",
    "nvvm.cp.async.wait.group": "Waits until at most N cp.async groups are pending (sm_80+).",
    "nvvm.elect.sync": "Elects one lane of the warp; true in exactly that lane (PTX elect.sync, sm_90+).",
    "nvvm.exit": "Ends the thread (PTX exit).",
    "nvvm.fence.mbarrier.init": "Orders earlier mbarrier.init for the cluster (PTX fence.mbarrier_init, sm_90+).",
    "nvvm.fence.proxy": "Orders memory accesses between proxies (e.g. generic and async) (PTX fence.proxy).",
    "nvvm.fence.proxy.acquire": "Acquire fence between proxies for a memory range.",
    "nvvm.fence.proxy.release": "Release fence between proxies.",
    "nvvm.fence.sc.cluster": "Sequentially consistent fence at cluster scope.",
    "nvvm.griddepcontrol": "Programmatic dependent launch: wait for the prerequisite grid, or let dependents start.",
    "nvvm.ldmatrix": "Warp-collective load of 8x8 matrix tiles from shared memory into registers (PTX ldmatrix).",
    "nvvm.mapa": "Maps a shared-memory address to the same address in another CTA of the cluster (PTX mapa).",
    "nvvm.match.sync": "Finds the lanes of a warp holding the same value (PTX match.sync).",
    "nvvm.mbarrier.arrive": "Arrives on an mbarrier and returns the phase state (PTX mbarrier.arrive).",
    "nvvm.mbarrier.arrive.expect_tx": "Arrives on an mbarrier and expects a number of transaction bytes.",
    "nvvm.mbarrier.arrive.expect_tx.shared": "mbarrier.arrive.expect_tx on a shared-memory address.",
    "nvvm.mbarrier.arrive.nocomplete": "Arrives on an mbarrier without completing the phase.",
    "nvvm.mbarrier.arrive.nocomplete.shared": "mbarrier.arrive.noComplete on a shared-memory address.",
    "nvvm.mbarrier.arrive.shared": "mbarrier.arrive on a shared-memory address.",
    "nvvm.mbarrier.init": "Initialises an mbarrier with its expected arrival count (PTX mbarrier.init).",
    "nvvm.mbarrier.init.shared": "mbarrier.init on a shared-memory address.",
    "nvvm.mbarrier.inval": "Invalidates an mbarrier so its memory can be reused (PTX mbarrier.inval).",
    "nvvm.mbarrier.inval.shared": "mbarrier.inval on a shared-memory address.",
    "nvvm.mbarrier.test.wait": "Tests whether an mbarrier phase has completed, without blocking.",
    "nvvm.mbarrier.test.wait.shared": "mbarrier.test_wait on a shared-memory address.",
    "nvvm.mbarrier.try_wait.parity": "Waits (looping on try_wait) for the phase of the given parity.",
    "nvvm.mbarrier.try_wait.parity.shared": "mbarrier.try_wait.parity on a shared-memory address.",
    "nvvm.memory.barrier": "Memory fence at a scope: cta, cluster, gpu or sys (PTX membar / fence.sc).",
    "nvvm.mma.sync": "Warp-level matrix multiply-accumulate on register fragments (PTX mma.sync).",
    "nvvm.nanosleep": "Suspends the thread for about the given number of nanoseconds (PTX nanosleep, sm_70+).",
    "nvvm.pmevent": "Triggers a performance-monitor event (PTX pmevent).",
    "nvvm.prefetch": "Prefetches a line of memory into a cache level (PTX prefetch).",
    "nvvm.rcp.approx.ftz.f": "Approximate f32 reciprocal, subnormals flushed to zero (PTX rcp.approx.ftz.f32).",
    "nvvm.redux.sync": "Reduces an integer across the lanes of a warp named by a mask (PTX redux.sync, sm_80+).",
    "nvvm.setmaxregister": "Raises or lowers the per-thread register budget of the warpgroup (PTX setmaxnreg, sm_90a).",
    "nvvm.shfl.sync": "Exchanges a 32-bit value between warp lanes (PTX shfl.sync).",
    "nvvm.stmatrix": "Warp-collective store of 8x8 matrix tiles from registers to shared memory (PTX stmatrix, sm_90+).",
    "nvvm.vote.sync": "Warp vote over a predicate: any, all, uni or ballot (PTX vote.sync).",
    "nvvm.wgmma.commit.group.sync.aligned": "Commits the pending wgmma operations into a group (sm_90a).",
    "nvvm.wgmma.fence.aligned": "Orders register accesses before the following wgmma operations (sm_90a).",
    "nvvm.wgmma.mma_async": "Asynchronous warpgroup matrix multiply-accumulate (PTX wgmma.mma_async, sm_90a).",
    "nvvm.wgmma.wait.group.sync.aligned": "Waits until at most N wgmma groups are pending (sm_90a).",
}

_STD = {
    "arith.constant": "A constant value.",
    "memref.load": "Loads one element of a memref.",
    "memref.store": "Stores one element into a memref.",
    "scf.for": "A counted loop from a lower bound to an upper bound by a step, with loop-carried values.",
    "scf.if": "Runs the then-region or the else-region depending on a condition.",
    "scf.yield": "Yields values from an scf region.",
    "func.func": "A function.",
    "func.return": "Returns from a func.func.",
    "llvm.func": "An LLVM function; `nvvm.kernel` marks a PTX .entry.",
    "llvm.call_intrinsic": "Calls an LLVM intrinsic by name.",
    "llvm.inline_asm": "Inline PTX assembly with its constraint string.",
}

DOCS: dict[str, str] = {**_GPU, **_NVGPU, **_NVVM, **_STD}

_SREG = re.compile(r"nvvm\.read\.ptx\.sreg\.([\w.]+)")
_SREG_WORDS = {
    "tid": "thread index within the block",
    "ntid": "block size",
    "ctaid": "block index within the grid",
    "nctaid": "grid size in blocks",
    "laneid": "lane index within the warp",
    "warpid": "warp index within the SM (not stable over time)",
    "nwarpid": "maximum number of warp ids",
    "smid": "SM index (not stable over time)",
    "nsmid": "maximum number of SM ids",
    "gridid": "grid identifier",
    "clock": "32-bit cycle counter",
    "clock64": "64-bit cycle counter",
    "globaltimer": "64-bit nanosecond timer",
    "warpsize": "warp size (32)",
    "clusterid": "cluster index within the grid",
    "nclusterid": "grid size in clusters",
}
_CLUSTER_WORDS = {
    "ctaid": "block index within the cluster",
    "nctaid": "cluster size in blocks",
    "ctarank": "block rank within the cluster",
    "nctarank": "number of blocks in the cluster",
}


def op_description(name: str) -> str:
    """Our one-line description of an upstream op, or "" when we have none."""
    text = DOCS.get(name)
    if text is not None:
        return text
    m = _SREG.fullmatch(name)
    if m is not None:
        reg = m.group(1)
        head = reg.split(".")[0]
        what = _SREG_WORDS.get(head, "")
        if reg.startswith("lanemask."):
            rel = {"eq": "equal to", "lt": "below", "le": "at most", "gt": "above", "ge": "at least"}
            what = f"mask of the warp lanes whose id is {rel.get(reg.split('.')[1], '?')} this lane's"
        elif reg.startswith("cluster."):
            what = _CLUSTER_WORDS.get(reg.split(".")[1], "")
        elif reg.startswith("envreg"):
            what = "driver-defined environment register"
        elif reg.startswith("globaltimer."):
            what = "low 32 bits of the nanosecond timer"
        ptx = "%" + re.sub(r"^(cluster|lanemask|globaltimer)\.", r"\1_", reg)
        return f"Reads the PTX special register `{ptx}`" + (f": {what}." if what else ".")
    return ""
