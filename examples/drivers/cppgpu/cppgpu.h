/* SPDX-License-Identifier: MIT */
/*
 * cppgpu.h - the classes of the Lattice miniport and the DDIs each file
 * implements.
 *
 * Objects. Every object the kernel holds a handle to (adapter, device,
 * context, allocation) is a KernelObject: allocated with kmcpp.h's
 * `new (NonPagedPoolNx, CG_POOL_TAG)` (non-paged: DDIs such as Patch and
 * SubmitCommand may run at DISPATCH_LEVEL, facts §5.3), deleted through the
 * base class, and stamped with a kind so a handle the kernel passes back is
 * used only when it names a live object of that kind.
 *
 * Segments are a class hierarchy too (segments.cpp): each kind answers the
 * WDDM descriptor fields its hardware fixes.
 */
#ifndef CPPGPU_H
#define CPPGPU_H

#include "wddmkit/kmcpp.h"
#include "wddmkit/driver.h"

#include "hardware.h"
#include "trace.h"

namespace cppgpu {

/* Pool tag 'CGpu' in memory order (what a debugger shows). */
constexpr ULONG CG_POOL_TAG = 0x75704743u;

/* ---- Objects behind handles -------------------------------------------- */

class KernelObject {
public:
    enum class Kind : UINT { Dead = 0, Adapter = 0x41504743, Device = 0x44564743, Context = 0x43584743, Allocation = 0x4C414743 };

    virtual ~KernelObject() { kind_ = Kind::Dead; }

    /* The object behind a kernel handle, or nullptr if it is not a live T. */
    template <class T> static T *from(HANDLE handle)
    {
        KernelObject *object = static_cast<KernelObject *>(handle);
        return object && object->kind_ == T::KIND ? static_cast<T *>(object) : nullptr;
    }

    HANDLE handle() { return this; }

protected:
    explicit KernelObject(Kind kind) : kind_(kind) {}

private:
    Kind kind_;
};

/* ---- Segments ----------------------------------------------------------- */

/* What both QUERYSEGMENT shapes share (DXGK_SEGMENTDESCRIPTOR3 and 4). */
struct SegmentAnswer {
    DXGK_SEGMENTFLAGS flags;
    UINT64 base;
    UINT64 cpu_address;
    UINT64 size;
    UINT64 commit_limit;
};

class Segment {
public:
    Segment(UINT id, UINT64 base, UINT64 size) : id_(id), base_(base), size_(size) {}
    virtual ~Segment() = default;

    virtual SegmentAnswer describe() const = 0;
    virtual bool is_aperture() const = 0;

    UINT id() const { return id_; }
    UINT mask() const { return 1u << (id_ - 1); } /* bit id - 1 of a segment set (G2) */
    UINT64 size() const { return size_; }

protected:
    SegmentAnswer common() const;

private:
    UINT id_;
    UINT64 base_;
    UINT64 size_;
};

class LocalMemorySegment final : public Segment {
public:
    LocalMemorySegment(UINT id, UINT64 base, UINT64 size, UINT64 cpu_bar)
        : Segment(id, base, size), cpu_bar_(cpu_bar) {}
    SegmentAnswer describe() const override;
    bool is_aperture() const override { return false; }

private:
    UINT64 cpu_bar_; /* 0: no CPU path */
};

class ApertureSegment final : public Segment {
public:
    ApertureSegment(UINT id, UINT64 base, UINT64 size, UINT64 commit_limit)
        : Segment(id, base, size), commit_limit_(commit_limit) {}
    SegmentAnswer describe() const override;
    bool is_aperture() const override { return true; }

private:
    UINT64 commit_limit_;
};

/* ---- The adapter -------------------------------------------------------- */

class Adapter final : public KernelObject {
public:
    static constexpr Kind KIND = Kind::Adapter;
    static constexpr UINT PAGING_BUFFER_SIZE = 0x4000; /* 16 KiB */

    Adapter() : KernelObject(KIND) {}
    ~Adapter() override;

    NTSTATUS create_segments();
    void start(const DXGKRNL_INTERFACE &kernel) { kernel_ = kernel; }

    const Segment *segment(UINT id) const;
    UINT all_segments() const { return (1u << lattice::SEGMENT_COUNT) - 1; }
    UINT aperture_segments() const;

    NTSTATUS query_caps(const DXGKARG_QUERYADAPTERINFO &query) const;
    NTSTATUS query_segments3(const DXGKARG_QUERYADAPTERINFO &query) const;
    NTSTATUS query_segments4(const DXGKARG_QUERYADAPTERINFO &query) const;

    void submitted(UINT fence) { last_submitted_fence_ = fence; }

private:
    Segment *segments_[lattice::SEGMENT_COUNT] = {};
    DXGKRNL_INTERFACE kernel_ = {};
    UINT last_submitted_fence_ = 0;
};

/* ---- Devices, contexts, allocations ------------------------------------ */

class Device final : public KernelObject {
public:
    static constexpr Kind KIND = Kind::Device;
    explicit Device(Adapter &adapter) : KernelObject(KIND), adapter_(adapter) {}
    Adapter &adapter() const { return adapter_; }

private:
    Adapter &adapter_;
};

class Context final : public KernelObject {
public:
    static constexpr Kind KIND = Kind::Context;
    static constexpr UINT DMA_BUFFER_SIZE = 0x4000;     /* 16 KiB */
    static constexpr UINT ALLOCATION_LIST_SIZE = 128;
    static constexpr UINT GDI_ALLOCATION_LIST_SIZE = 256; /* fixed by the DDI (CTX-GDI-001) */
    static constexpr UINT PATCH_LIST_SIZE = 512;

    explicit Context(Device &device) : KernelObject(KIND), device_(device) {}
    Device &device() const { return device_; }
    void describe(bool gdi, DXGK_CONTEXTINFO &info) const;

private:
    Device &device_;
};

class Allocation final : public KernelObject {
public:
    static constexpr Kind KIND = Kind::Allocation;
    explicit Allocation(UINT64 size) : KernelObject(KIND), size_(size) {}
    UINT64 size() const { return size_; }
    /* [offset, offset + bytes) lies inside the allocation. */
    bool holds(UINT64 offset, UINT64 bytes) const { return offset <= size_ && bytes <= size_ - offset; }

private:
    UINT64 size_;
};

/* ---- The DDIs, by file -------------------------------------------------- */

/* adapter.cpp */
DXGKDDI_ADD_DEVICE AddDevice;
DXGKDDI_START_DEVICE StartDevice;
DXGKDDI_STOP_DEVICE StopDevice;
DXGKDDI_REMOVE_DEVICE RemoveDevice;
DXGKDDI_QUERYADAPTERINFO QueryAdapterInfo;
/* objects.cpp */
DXGKDDI_CREATEDEVICE CreateDevice;
DXGKDDI_DESTROYDEVICE DestroyDevice;
DXGKDDI_CREATECONTEXT CreateContext;
DXGKDDI_DESTROYCONTEXT DestroyContext;
DXGKDDI_CREATEALLOCATION CreateAllocation;
DXGKDDI_DESTROYALLOCATION DestroyAllocation;
/* paging.cpp */
DXGKDDI_BUILDPAGINGBUFFER BuildPagingBuffer;
/* render.cpp */
DXGKDDI_RENDER Render;
/* submit.cpp */
DXGKDDI_PATCH Patch;
DXGKDDI_SUBMITCOMMAND SubmitCommand;
DXGKDDI_INTERRUPT_ROUTINE InterruptRoutine;
DXGKDDI_DPC_ROUTINE DpcRoutine;

} // namespace cppgpu

#endif /* CPPGPU_H */
