package nn

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/nlpodyssey/gopickle/pickle"
	"github.com/nlpodyssey/gopickle/pytorch"
	"github.com/nlpodyssey/gopickle/types"
)

// ReadPyTorch parses a checkpoint written by torch.save (the zip format of
// PyTorch >= 1.6) held in data: a raw state_dict, or the self-play trainer's
// dict {"m": state_dict, "g": generation, "best_wr": rate}, whose g and
// best_wr go into Meta. Keys prefixed "module." (nn.DataParallel) are
// accepted. Like ReadSafetensors it does not check the tensors against
// ValueNet (Weights.Validate does).
//
// The archive is unpickled with a closed list of classes (dicts, tensors and
// their storages), so a checkpoint cannot make the loader run anything.
func ReadPyTorch(data []byte) (w *Weights, meta Meta, err error) {
	// The unpickler is third-party code fed with user input: turn any panic
	// of it into an error rather than crash the arena.
	defer func() {
		if r := recover(); r != nil {
			w, err = nil, fmt.Errorf("malformed pickle in the checkpoint: %v", r)
		}
	}()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		if isPickle(data) {
			return nil, meta, fmt.Errorf("legacy (pre-zip) torch.save format: load it in PyTorch >= 1.6 and torch.save it again")
		}
		if isZip(data) {
			return nil, meta, fmt.Errorf("zip archive of %d bytes unreadable (truncated or damaged?): %v", len(data), err)
		}
		return nil, meta, fmt.Errorf("not a torch.save zip archive: %v", err)
	}
	var pkl *zip.File
	for _, f := range zr.File {
		switch path.Base(f.Name) {
		case "constants.pkl":
			return nil, meta, fmt.Errorf("%s: a TorchScript archive (torch.jit.save); save the state_dict with torch.save instead", f.Name)
		case "data.pkl":
			if pkl == nil {
				pkl = f
			}
		}
	}
	if pkl == nil {
		return nil, meta, fmt.Errorf("zip archive without data.pkl: not a torch.save checkpoint")
	}
	storages := map[string]*zip.File{}
	prefix := path.Dir(pkl.Name) + "/data/"
	for _, f := range zr.File {
		if key, ok := strings.CutPrefix(f.Name, prefix); ok {
			storages[key] = f
		}
	}

	// A sane archive's records are about as large as the archive: torch.save
	// stores them uncompressed. Refuse claims that would make the loader
	// allocate far more memory than the file could ever fill.
	limit := 64 * uint64(len(data))
	for _, f := range zr.File {
		if f.UncompressedSize64 > limit {
			return nil, meta, fmt.Errorf("record %s claims %d bytes in a %d-byte archive: damaged", f.Name, f.UncompressedSize64, len(data))
		}
	}
	obj, err := unpickleCheckpoint(pkl, storages)
	if err != nil {
		return nil, meta, fmt.Errorf("%s: %w", pkl.Name, err)
	}
	return interpretCheckpoint(obj)
}

// unpickleCheckpoint runs the unpickler over data.pkl, loading tensor
// storages from the archive's data/ records.
func unpickleCheckpoint(pkl *zip.File, records map[string]*zip.File) (any, error) {
	// Read the whole pickle first: the zip reader checks its CRC at the end,
	// so a damaged pickle is an error here, before the unpickler trusts the
	// lengths in it (and allocates what they say).
	program, err := readRecord(pkl)
	if err != nil {
		return nil, err
	}
	loaded := map[string]pytorch.StorageInterface{}
	u := pickle.NewUnpickler(bytes.NewReader(program))
	u.FindClass = func(module, name string) (any, error) {
		switch module + "." + name {
		case "torch._utils._rebuild_tensor_v2":
			return &pytorch.RebuildTensorV2{}, nil
		case "torch.FloatStorage":
			return &pytorch.FloatStorageClass{}, nil
		case "torch.DoubleStorage":
			return &pytorch.DoubleStorageClass{}, nil
		case "torch.HalfStorage":
			return &pytorch.HalfStorageClass{}, nil
		case "torch.BFloat16Storage":
			return &pytorch.BFloat16StorageClass{}, nil
		case "torch.LongStorage":
			return &pytorch.LongStorageClass{}, nil
		}
		return nil, fmt.Errorf("class %s.%s is not allowed in a weights checkpoint: expected a state_dict (torch.save(model.state_dict())) or {m, g, best_wr} of tensors and numbers", module, name)
	}
	u.PersistentLoad = func(id any) (any, error) {
		t, ok := id.(*types.Tuple)
		if !ok || t.Len() != 5 || t.Get(0) != "storage" {
			return nil, fmt.Errorf("persistent id %v: expected ('storage', type, key, location, size)", id)
		}
		class, ok1 := t.Get(1).(pytorch.StorageClassInterface)
		key, ok2 := t.Get(2).(string)
		location, ok3 := t.Get(3).(string)
		size, ok4 := t.Get(4).(int)
		if !ok1 || !ok2 || !ok3 || !ok4 || size < 0 {
			return nil, fmt.Errorf("persistent id %v: expected ('storage', type, key, location, size)", id)
		}
		if s, ok := loaded[key]; ok {
			return s, nil
		}
		rec, ok := records[key]
		if !ok {
			return nil, fmt.Errorf("storage %q: record data/%s missing from the archive", key, key)
		}
		// Check the size against the record before the storage allocates it.
		if need := uint64(size) * uint64(storageElemSize(class)); need > rec.UncompressedSize64 {
			return nil, fmt.Errorf("storage %q: %d elements need %d bytes, record %s has %d", key, size, need, rec.Name, rec.UncompressedSize64)
		}
		raw, err := readRecord(rec)
		if err != nil {
			return nil, fmt.Errorf("storage %q: %w", key, err)
		}
		s := class.New(size, location)
		if err := s.SetFromFileWithSize(bytes.NewReader(raw), size); err != nil {
			return nil, fmt.Errorf("storage %q (%s): %w", key, rec.Name, err)
		}
		loaded[key] = s
		return s, nil
	}
	return u.Load()
}

// readRecord reads a whole archive record, checking its CRC.
func readRecord(f *zip.File) ([]byte, error) {
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", f.Name, err)
	}
	return data, nil
}

func storageElemSize(c pytorch.StorageClassInterface) int {
	switch c.(type) {
	case *pytorch.HalfStorageClass, *pytorch.BFloat16StorageClass:
		return 2
	case *pytorch.FloatStorageClass:
		return 4
	}
	return 8
}

// dictEntries lists the entries of an unpickled dict or OrderedDict.
func dictEntries(obj any) ([]types.DictEntry, bool) {
	switch d := obj.(type) {
	case *types.Dict:
		return *d, true
	case *types.OrderedDict:
		out := make([]types.DictEntry, 0, d.Len())
		for e := d.List.Front(); e != nil; e = e.Next() {
			oe := e.Value.(*types.OrderedDictEntry)
			out = append(out, types.DictEntry{Key: oe.Key, Value: oe.Value})
		}
		return out, true
	}
	return nil, false
}

func dictGet(entries []types.DictEntry, key string) (any, bool) {
	for _, e := range entries {
		if e.Key == key {
			return e.Value, true
		}
	}
	return nil, false
}

// interpretCheckpoint recognises the two checkpoint forms of the thesis.
func interpretCheckpoint(obj any) (*Weights, Meta, error) {
	meta := Meta{Format: FormatTorchStateDict, Architecture: Architecture}
	entries, ok := dictEntries(obj)
	if !ok {
		return nil, meta, fmt.Errorf("checkpoint holds a %T, expected a state_dict or a dict {m, g, best_wr}", obj)
	}
	state := entries
	if m, ok := dictGet(entries, checkpointKeyStateDict); ok {
		meta.Format = FormatTorchCheckpoint
		if state, ok = dictEntries(m); !ok {
			return nil, meta, fmt.Errorf(`checkpoint["m"] is a %T, expected a state_dict`, m)
		}
		if g, ok := dictGet(entries, checkpointKeyGeneration); ok {
			gen, isInt := g.(int)
			if !isInt {
				return nil, meta, fmt.Errorf(`checkpoint["g"] is %v (%T), expected an integer generation`, g, g)
			}
			meta.Generation, meta.HasGeneration = gen, true
		}
		if r, ok := dictGet(entries, checkpointKeyBestWR); ok {
			switch r := r.(type) {
			case float64:
				meta.BestWR, meta.HasBestWR = r, true
			case int:
				meta.BestWR, meta.HasBestWR = float64(r), true
			default:
				return nil, meta, fmt.Errorf(`checkpoint["best_wr"] is %v (%T), expected a number`, r, r)
			}
		}
	}

	w := &Weights{Tensors: make([]Tensor, 0, len(state))}
	allModule := len(state) > 0
	for _, e := range state {
		name, ok := e.Key.(string)
		if !ok {
			return nil, meta, fmt.Errorf("state_dict key %v is a %T, expected a tensor name", e.Key, e.Key)
		}
		pt, ok := e.Value.(*pytorch.Tensor)
		if !ok {
			return nil, meta, fmt.Errorf("state_dict entry %s is a %T, expected a tensor", name, e.Value)
		}
		t, err := convertTensor(name, pt)
		if err != nil {
			return nil, meta, err
		}
		allModule = allModule && strings.HasPrefix(name, "module.")
		w.Tensors = append(w.Tensors, t)
	}
	if allModule { // saved from nn.DataParallel(model)
		for i := range w.Tensors {
			w.Tensors[i].Name = strings.TrimPrefix(w.Tensors[i].Name, "module.")
		}
	}
	return w, meta, nil
}

// convertTensor copies a (possibly strided) PyTorch tensor into a dense one.
func convertTensor(name string, pt *pytorch.Tensor) (Tensor, error) {
	t := Tensor{Name: name, Shape: slices.Clone(pt.Size)}
	if t.Shape == nil {
		t.Shape = []int{}
	}
	var f32 []float32
	var i64 []int64
	switch s := pt.Source.(type) {
	case *pytorch.FloatStorage:
		f32 = s.Data
	case *pytorch.HalfStorage:
		f32 = s.Data
	case *pytorch.BFloat16Storage:
		f32 = s.Data
	case *pytorch.DoubleStorage:
		f32 = make([]float32, len(s.Data))
		for i, v := range s.Data {
			f32[i] = float32(v)
		}
	case *pytorch.LongStorage:
		i64 = s.Data
	default:
		return t, fmt.Errorf("tensor %s: storage %T not supported, expected float or int64", name, pt.Source)
	}
	n := len(f32) + len(i64)
	index, err := denseIndex(pt.Size, pt.Stride, pt.StorageOffset, n)
	if err != nil {
		return t, fmt.Errorf("tensor %s: %w", name, err)
	}
	if i64 != nil {
		t.DType, t.I64 = I64, make([]int64, len(index))
		for i, j := range index {
			t.I64[i] = i64[j]
		}
		return t, nil
	}
	t.DType, t.F32 = F32, make([]float32, len(index))
	for i, j := range index {
		t.F32[i] = f32[j]
	}
	return t, nil
}

// denseIndex lists, in row-major order, the storage index of every element of
// a tensor with the given size, stride and offset into a storage of n elements.
func denseIndex(size, stride []int, offset, n int) ([]int, error) {
	if len(size) != len(stride) {
		return nil, fmt.Errorf("size %v and stride %v differ in rank", size, stride)
	}
	count, last := 1, offset
	for i, d := range size {
		if d < 0 || stride[i] < 0 {
			return nil, fmt.Errorf("size %v, stride %v: negative", size, stride)
		}
		if d == 0 {
			return []int{}, nil
		}
		if d > n || count > n/d || d > 1 && stride[i] >= n {
			return nil, fmt.Errorf("size %v, stride %v exceed the storage of %d elements", size, stride, n)
		}
		count *= d
		last += (d - 1) * stride[i]
	}
	if offset < 0 || last >= n {
		return nil, fmt.Errorf("size %v, stride %v, offset %d reach element %d of a storage of %d", size, stride, offset, last, n)
	}
	index := make([]int, count)
	pos := make([]int, len(size))
	for i := range index {
		j := offset
		for k, p := range pos {
			j += p * stride[k]
		}
		index[i] = j
		for k := len(pos) - 1; k >= 0; k-- {
			if pos[k]++; pos[k] < size[k] {
				break
			}
			pos[k] = 0
		}
	}
	return index, nil
}
