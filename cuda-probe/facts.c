/* facts.c: device facts (see facts.h). NVML is loaded with dlopen and declared here with the few
 * typedefs the probe needs (no nvml.h at build time), so the probe runs where NVML is absent.
 * Owns: the NVML handle for the length of gp_facts_nvml.
 * Not: measuring, JSON.
 * Threads: the probe's one host thread. */
#include "facts.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static void copy_str(char *dst, size_t n, const char *src) {
  size_t len = strnlen(src, n - 1);
  memcpy(dst, src, len);
  dst[len] = '\0';
}

static int attr(gp_run *r, enum cudaDeviceAttr a, int *out) {
  GP_CK(r, "reading a device attribute", cudaDeviceGetAttribute(out, a, r->device));
  return 0;
}

int gp_facts_cuda(gp_run *r) {
  gp_device_facts *d = &r->ev->device;
  struct cudaDeviceProp p;
  memset(&p, 0, sizeof p);
  GP_CK(r, "reading the device's properties", cudaGetDeviceProperties(&p, r->device));
  d->index = r->device;
  copy_str(d->name, sizeof d->name, p.name);
  if (!d->name[0]) copy_str(d->name, sizeof d->name, "unnamed CUDA device");
  d->cc_major = p.major;
  d->cc_minor = p.minor;
  d->sm_count = p.multiProcessorCount;
  d->memory_bytes = (unsigned long long)p.totalGlobalMem;
  d->l2_bytes = p.l2CacheSize;
  d->memory_bus_bits = p.memoryBusWidth;
  d->ecc = p.ECCEnabled ? 1 : 0;
  d->pageable_memory_access = p.pageableMemoryAccess ? 1 : 0;
  int khz = 0;
  GP_TRY(attr(r, cudaDevAttrClockRate, &khz));
  d->clock_mhz = khz > 0 ? khz / 1000 : -1;
  GP_TRY(attr(r, cudaDevAttrMemoryClockRate, &khz));
  d->memory_clock_mhz = khz > 0 ? khz / 1000 : -1;
  int v = 0;
  GP_CK(r, "reading the driver version", cudaDriverGetVersion(&v));
  d->driver_version = v > 0 ? v : -1;
  GP_CK(r, "reading the runtime version", cudaRuntimeGetVersion(&v));
  d->runtime_version = v > 0 ? v : -1;
  char bus[32] = "";
  if (cudaDeviceGetPCIBusId(bus, (int)sizeof bus, r->device) == cudaSuccess && bus[0]) {
    copy_str(d->pci.bus_id, sizeof d->pci.bus_id, bus);
  } else {
    (void)cudaGetLastError(); /* an unknown bus id is not an error: clear it */
  }
  return 0;
}

/* ---- NVML, declared by hand ----------------------------------------------------------------- */

typedef int nvml_ret;                      /* nvmlReturn_t; 0 is NVML_SUCCESS */
typedef struct nvml_device_st *nvml_device; /* nvmlDevice_t */
typedef struct { unsigned int isC2cEnabled; } nvml_c2c_mode_v1; /* nvmlC2cModeInfo_v1_t */

typedef nvml_ret (*nvml_init_fn)(void);
typedef nvml_ret (*nvml_by_bus_fn)(const char *bus_id, nvml_device *dev);
typedef nvml_ret (*nvml_uint_fn)(nvml_device dev, unsigned int *out);
typedef nvml_ret (*nvml_c2c_fn)(nvml_device dev, nvml_c2c_mode_v1 *out);

/* dlsym returns void *; converting through memcpy keeps ISO C's object/function pointer rule. */
static void *sym(void *lib, const char *name, void *fn, size_t fn_size) {
  void *p = dlsym(lib, name);
  if (p) memcpy(fn, &p, fn_size);
  return p;
}

static int nvml_uint(void *lib, const char *name, nvml_device dev) {
  nvml_uint_fn fn = NULL;
  unsigned int v = 0;
  if (!sym(lib, name, &fn, sizeof fn) || fn(dev, &v) != 0) return -1;
  return (int)v;
}

static void nvml_read(void *lib, gp_device_facts *d) {
  nvml_by_bus_fn by_bus = NULL;
  nvml_device dev = NULL;
  if (!sym(lib, "nvmlDeviceGetHandleByPciBusId_v2", &by_bus, sizeof by_bus)) return;
  if (by_bus(d->pci.bus_id, &dev) != 0 || !dev) return;
  d->pci.known = 1;
  d->pci.link_gen = nvml_uint(lib, "nvmlDeviceGetCurrPcieLinkGeneration", dev);
  d->pci.link_width = nvml_uint(lib, "nvmlDeviceGetCurrPcieLinkWidth", dev);
  d->pci.max_link_gen = nvml_uint(lib, "nvmlDeviceGetMaxPcieLinkGeneration", dev);
  d->pci.max_link_width = nvml_uint(lib, "nvmlDeviceGetMaxPcieLinkWidth", dev);
  int persistence = nvml_uint(lib, "nvmlDeviceGetPersistenceMode", dev); /* nvmlEnableState_t */
  if (persistence >= 0) d->persistence_mode = persistence ? 1 : 0;
  nvml_c2c_fn c2c = NULL;
  nvml_c2c_mode_v1 mode = {0};
  if (sym(lib, "nvmlDeviceGetC2cModeInfoV", &c2c, sizeof c2c) && c2c(dev, &mode) == 0)
    d->c2c_enabled = mode.isC2cEnabled ? 1 : 0;
}

void gp_facts_nvml(gp_run *r) {
  gp_device_facts *d = &r->ev->device;
  if (!d->pci.bus_id[0]) return;
  void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return;
  nvml_init_fn init = NULL, shutdown = NULL;
  if (sym(lib, "nvmlInit_v2", &init, sizeof init) && init() == 0) {
    nvml_read(lib, d);
    if (sym(lib, "nvmlShutdown", &shutdown, sizeof shutdown)) shutdown();
  }
  dlclose(lib);
}
