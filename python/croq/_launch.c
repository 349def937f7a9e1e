/* _launch.c - the native call path of croq entry points.
 *
 * A Launcher is made for one checked call: the entry point's C function, the
 * memref descriptors built for it (as bytes, data pointers left out), and
 * the key it was checked for: per tensor its dtype, device, shape and
 * strides; per scalar argument its type. Calling it with torch tensors that
 * match the key (and Python ints or floats for the scalars) fills copies of
 * the descriptors on the C stack with the tensors' data pointers, converts
 * the scalars into C values there, reads torch's current stream and calls
 * the entry point with the GIL released: one foreign call, no ctypes
 * conversions, nothing shared between threads. Every argument is passed by
 * reference (croq's calling convention 3).
 *
 * It returns None when the entry point reports success, the status (an
 * int) when it reports a failure, and NotImplemented when the arguments
 * do not match the key, a pointer is misaligned or a scalar is out of its
 * type's range; the Python caller then takes the checked path, which
 * raises the precise error.
 *
 * croq compiles this file with the host's C compiler the first time a call
 * needs it (croq/_native.py) and uses ctypes where it cannot.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The most tensors a Launcher takes; entry points with more use ctypes. */
#define CROQ_MAX_ARGS 16
/* The largest descriptor: two pointers, the offset, sizes and strides of
   rank 8. */
#define CROQ_MAX_DESCRIPTOR (8 * (3 + 2 * 8))

typedef int32_t (*Entry)(void);

/* What an argument is: a tensor, or a scalar of one of these types (the
   codes of module.py's _SCALAR_KINDS). */
enum Kind {
  KIND_TENSOR = 0,
  KIND_I1 = 1,
  KIND_I8 = 2,
  KIND_I16 = 3,
  KIND_I32 = 4,
  KIND_I64 = 5,
  KIND_F32 = 6,
  KIND_F64 = 7,
  KIND_END
};

/* A scalar's value as the entry point reads it. */
typedef union {
  uint8_t i1;
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  float f32;
  double f64;
} Scalar;

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  Entry entry;
  Py_ssize_t count;
  PyObject *tensorType;
  PyObject *rawStream;
  PyObject *device;
  /* Per argument: its kind; per tensor the key, the descriptor and how the
     data pointer enters it. */
  int kinds[CROQ_MAX_ARGS];
  PyObject *dtypes[CROQ_MAX_ARGS];
  long devices[CROQ_MAX_ARGS];
  PyObject *shapes[CROQ_MAX_ARGS];
  PyObject *strides[CROQ_MAX_ARGS];
  char descriptors[CROQ_MAX_ARGS][CROQ_MAX_DESCRIPTOR];
  Py_ssize_t descriptorSizes[CROQ_MAX_ARGS];
  unsigned long long shifts[CROQ_MAX_ARGS];
  unsigned long long itemsizes[CROQ_MAX_ARGS];
} Launcher;

static PyObject *strDtype, *strShape, *strStride, *strGetDevice, *strDataPtr;

/* Calls `entry` with `n` descriptor pointers and the stream. */
static int32_t callEntry(Entry entry, Py_ssize_t n, void **a, void *s) {
  typedef void *P;
  switch (n) {
#define CROQ_CALL(N, ...)                                                      \
  case N:                                                                      \
    return ((int32_t(*)(__VA_ARGS__, P))entry)
  case 0:
    return ((int32_t(*)(P))entry)(s);
  CROQ_CALL(1, P)(a[0], s);
  CROQ_CALL(2, P, P)(a[0], a[1], s);
  CROQ_CALL(3, P, P, P)(a[0], a[1], a[2], s);
  CROQ_CALL(4, P, P, P, P)(a[0], a[1], a[2], a[3], s);
  CROQ_CALL(5, P, P, P, P, P)(a[0], a[1], a[2], a[3], a[4], s);
  CROQ_CALL(6, P, P, P, P, P, P)(a[0], a[1], a[2], a[3], a[4], a[5], s);
  CROQ_CALL(7, P, P, P, P, P, P, P)
  (a[0], a[1], a[2], a[3], a[4], a[5], a[6], s);
  CROQ_CALL(8, P, P, P, P, P, P, P, P)
  (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], s);
  CROQ_CALL(9, P, P, P, P, P, P, P, P, P)
  (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], s);
  CROQ_CALL(10, P, P, P, P, P, P, P, P, P, P)
  (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], s);
  CROQ_CALL(11, P, P, P, P, P, P, P, P, P, P, P)
  (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], s);
  CROQ_CALL(12, P, P, P, P, P, P, P, P, P, P, P, P)
  (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
   s);
  CROQ_CALL(13, P, P, P, P, P, P, P, P, P, P, P, P, P)
  (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
   a[12], s);
  CROQ_CALL(14, P, P, P, P, P, P, P, P, P, P, P, P, P, P)
  (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
   a[12], a[13], s);
  CROQ_CALL(15, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)
  (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
   a[12], a[13], a[14], s);
  CROQ_CALL(16, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)
  (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
   a[12], a[13], a[14], a[15], s);
#undef CROQ_CALL
  }
  return -1;
}

/* 1 if `value` (a new reference, or NULL after an error) equals `expected`,
   0 if not, -1 on error. Steals `value`. */
static int matches(PyObject *value, PyObject *expected) {
  if (!value)
    return -1;
  int equal = value == expected ? 1
                                : PyObject_RichCompareBool(value, expected,
                                                           Py_EQ);
  Py_DECREF(value);
  return equal;
}

/* Converts `value` into `out` for a scalar of `kind`: 1 on success, 0
   where the value is not an exact int (or float, for f32 and f64) in the
   type's range (signed or unsigned: the types are signless). Sets no
   Python error. */
static int convertScalar(int kind, PyObject *value, Scalar *out) {
  if (kind == KIND_F32 || kind == KIND_F64) {
    double d;
    if (PyFloat_CheckExact(value)) {
      d = PyFloat_AS_DOUBLE(value);
    } else if (PyLong_CheckExact(value)) {
      d = PyLong_AsDouble(value);
      if (d == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
      }
    } else {
      return 0;
    }
    if (kind == KIND_F32)
      out->f32 = (float)d;
    else
      out->f64 = d;
    return 1;
  }
  if (kind == KIND_I1) {
    if (value != Py_True && value != Py_False)
      return 0;
    out->i1 = value == Py_True;
    return 1;
  }
  if (!PyLong_CheckExact(value))
    return 0;
  int overflow;
  long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (overflow || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return 0; /* the checked path takes the full range of i64 and index */
  }
  switch (kind) {
  case KIND_I8:
    if (v < INT8_MIN || v > UINT8_MAX)
      return 0;
    out->i8 = (int8_t)(uint8_t)v;
    return 1;
  case KIND_I16:
    if (v < INT16_MIN || v > UINT16_MAX)
      return 0;
    out->i16 = (int16_t)(uint16_t)v;
    return 1;
  case KIND_I32:
    if (v < INT32_MIN || v > (long long)UINT32_MAX)
      return 0;
    out->i32 = (int32_t)(uint32_t)v;
    return 1;
  case KIND_I64:
    out->i64 = v;
    return 1;
  }
  return 0;
}

/* The value of calling method `name` of `self` without arguments. */
static PyObject *callMethod(PyObject *self, PyObject *name) {
  return PyObject_VectorcallMethod(name, &self,
                                   1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

static PyObject *launcherCall(PyObject *callable, PyObject *const *args,
                              size_t nargsf, PyObject *kwnames) {
  Launcher *self = (Launcher *)callable;
  Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  if (n != self->count || (kwnames && PyTuple_GET_SIZE(kwnames)))
    Py_RETURN_NOTIMPLEMENTED;
  char descriptors[CROQ_MAX_ARGS][CROQ_MAX_DESCRIPTOR];
  Scalar scalars[CROQ_MAX_ARGS];
  void *pointers[CROQ_MAX_ARGS];
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *t = args[i];
    if (self->kinds[i] != KIND_TENSOR) {
      if (!convertScalar(self->kinds[i], t, &scalars[i]))
        Py_RETURN_NOTIMPLEMENTED;
      pointers[i] = &scalars[i];
      continue;
    }
    if ((PyObject *)Py_TYPE(t) != self->tensorType)
      Py_RETURN_NOTIMPLEMENTED;
    int ok = matches(PyObject_GetAttr(t, strDtype), self->dtypes[i]);
    if (ok == 1)
      ok = matches(PyObject_GetAttr(t, strShape), self->shapes[i]);
    if (ok == 1)
      ok = matches(callMethod(t, strStride), self->strides[i]);
    if (ok == 1) {
      PyObject *device = callMethod(t, strGetDevice);
      if (!device)
        return NULL;
      long index = PyLong_AsLong(device);
      Py_DECREF(device);
      if (index == -1 && PyErr_Occurred())
        return NULL;
      ok = index == self->devices[i];
    }
    if (ok < 0)
      return NULL;
    if (!ok)
      Py_RETURN_NOTIMPLEMENTED;
    PyObject *ptrObject = callMethod(t, strDataPtr);
    if (!ptrObject)
      return NULL;
    unsigned long long ptr = PyLong_AsUnsignedLongLong(ptrObject);
    Py_DECREF(ptrObject);
    if (ptr == (unsigned long long)-1 && PyErr_Occurred())
      return NULL;
    if (ptr % self->itemsizes[i])
      Py_RETURN_NOTIMPLEMENTED;
    /* The allocated and aligned pointers lead the descriptor. */
    uint64_t aligned = (uint64_t)(ptr - self->shifts[i]);
    memcpy(descriptors[i], self->descriptors[i],
           (size_t)self->descriptorSizes[i]);
    memcpy(descriptors[i], &aligned, sizeof aligned);
    memcpy(descriptors[i] + sizeof aligned, &aligned, sizeof aligned);
    pointers[i] = descriptors[i];
  }
  PyObject *streamObject =
      PyObject_CallOneArg(self->rawStream, self->device);
  if (!streamObject)
    return NULL;
  void *stream = PyLong_AsVoidPtr(streamObject);
  Py_DECREF(streamObject);
  if (!stream && PyErr_Occurred())
    return NULL;
  int32_t status;
  Py_BEGIN_ALLOW_THREADS
  status = callEntry(self->entry, n, pointers, stream);
  Py_END_ALLOW_THREADS
  if (status == 0)
    Py_RETURN_NONE;
  return PyLong_FromLong(status);
}

/* Launcher(entry, descriptors, shifts, itemsizes, dtypes, devices, shapes,
            strides, raw_stream, tensor_type, device, kinds): per argument
   lists; a scalar's descriptor is empty, its key entries unused. */
static int launcherInit(PyObject *object, PyObject *args, PyObject *kwargs) {
  Launcher *self = (Launcher *)object;
  PyObject *entry, *descriptors, *shifts, *itemsizes, *dtypes, *devices,
      *shapes, *strides, *rawStream, *tensorType, *device, *kinds;
  if (self->vectorcall) {
    PyErr_SetString(PyExc_TypeError, "a Launcher is initialized once");
    return -1;
  }
  if (!PyArg_ParseTuple(args, "OO!O!O!O!O!O!O!OOOO!:Launcher", &entry,
                        &PyList_Type, &descriptors, &PyList_Type, &shifts,
                        &PyList_Type, &itemsizes, &PyList_Type, &dtypes,
                        &PyList_Type, &devices, &PyList_Type, &shapes,
                        &PyList_Type, &strides, &rawStream, &tensorType,
                        &device, &PyList_Type, &kinds))
    return -1;
  self->entry = (Entry)PyLong_AsVoidPtr(entry);
  if (!self->entry)
    return PyErr_Occurred() ? -1 : (PyErr_SetString(PyExc_ValueError,
                                                    "null entry point"),
                                    -1);
  Py_ssize_t n = PyList_GET_SIZE(descriptors);
  PyObject *lists[] = {shifts, itemsizes, dtypes, devices,
                       shapes, strides,   kinds};
  for (size_t l = 0; l < sizeof lists / sizeof *lists; ++l)
    if (PyList_GET_SIZE(lists[l]) != n) {
      PyErr_SetString(PyExc_ValueError, "per-argument lists differ in length");
      return -1;
    }
  if (n > CROQ_MAX_ARGS) {
    PyErr_Format(PyExc_ValueError, "at most %d tensors, got %zd",
                 CROQ_MAX_ARGS, n);
    return -1;
  }
  Py_INCREF(rawStream);
  Py_INCREF(tensorType);
  Py_INCREF(device);
  self->rawStream = rawStream;
  self->tensorType = tensorType;
  self->device = device;
  for (Py_ssize_t i = 0; i < n; ++i) {
    long kind = PyLong_AsLong(PyList_GET_ITEM(kinds, i));
    if (kind == -1 && PyErr_Occurred())
      return -1;
    if (kind < KIND_TENSOR || kind >= KIND_END) {
      PyErr_Format(PyExc_ValueError, "argument %zd has kind %ld", i, kind);
      return -1;
    }
    self->kinds[i] = (int)kind;
    if (kind != KIND_TENSOR) {
      /* A scalar: no key, no descriptor (kept null for the dealloc). */
      self->count = i + 1;
      continue;
    }
    char *bytes;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(PyList_GET_ITEM(descriptors, i), &bytes,
                                &size) < 0)
      return -1;
    if (size < 16 || size > CROQ_MAX_DESCRIPTOR) {
      PyErr_Format(PyExc_ValueError, "descriptor %zd has %zd bytes", i, size);
      return -1;
    }
    memcpy(self->descriptors[i], bytes, (size_t)size);
    self->descriptorSizes[i] = size;
    self->shifts[i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(shifts, i));
    self->itemsizes[i] =
        PyLong_AsUnsignedLongLong(PyList_GET_ITEM(itemsizes, i));
    self->devices[i] = PyLong_AsLong(PyList_GET_ITEM(devices, i));
    if (PyErr_Occurred())
      return -1;
    if (!self->itemsizes[i]) {
      PyErr_SetString(PyExc_ValueError, "item size 0");
      return -1;
    }
    self->dtypes[i] = PyList_GET_ITEM(dtypes, i);
    self->shapes[i] = PyList_GET_ITEM(shapes, i);
    self->strides[i] = PyList_GET_ITEM(strides, i);
    Py_INCREF(self->dtypes[i]);
    Py_INCREF(self->shapes[i]);
    Py_INCREF(self->strides[i]);
    self->count = i + 1;
  }
  self->vectorcall = launcherCall;
  return 0;
}

static void launcherDealloc(PyObject *object) {
  Launcher *self = (Launcher *)object;
  for (Py_ssize_t i = 0; i < self->count; ++i) {
    Py_XDECREF(self->dtypes[i]);
    Py_XDECREF(self->shapes[i]);
    Py_XDECREF(self->strides[i]);
  }
  Py_XDECREF(self->rawStream);
  Py_XDECREF(self->tensorType);
  Py_XDECREF(self->device);
  Py_TYPE(object)->tp_free(object);
}

static PyTypeObject LauncherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "croq._launch.Launcher",
    .tp_basicsize = sizeof(Launcher),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "A checked croq call, repeated on tensors of the same key.",
    .tp_new = PyType_GenericNew,
    .tp_init = launcherInit,
    .tp_dealloc = launcherDealloc,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Launcher, vectorcall),
};

static struct PyModuleDef launchModule = {
    PyModuleDef_HEAD_INIT, .m_name = "_launch",
    .m_doc = "croq's native call path", .m_size = -1};

PyMODINIT_FUNC PyInit__launch(void) {
  if (!(strDtype = PyUnicode_InternFromString("dtype")) ||
      !(strShape = PyUnicode_InternFromString("shape")) ||
      !(strStride = PyUnicode_InternFromString("stride")) ||
      !(strGetDevice = PyUnicode_InternFromString("get_device")) ||
      !(strDataPtr = PyUnicode_InternFromString("data_ptr")))
    return NULL;
  if (PyType_Ready(&LauncherType) < 0)
    return NULL;
  PyObject *module = PyModule_Create(&launchModule);
  if (!module)
    return NULL;
  Py_INCREF(&LauncherType);
  if (PyModule_AddObject(module, "Launcher", (PyObject *)&LauncherType) < 0) {
    Py_DECREF(&LauncherType);
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
