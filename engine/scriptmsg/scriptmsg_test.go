package scriptmsg

import (
	"strings"
	"testing"

	"github.com/bcserver/bcserver/codec"
)

func TestKobayashiMaru(t *testing.T) {
	km := KobayashiMaru()
	for _, op := range []byte{205, 211, 212, 213, 214} {
		if km.Lookup(op) == nil {
			t.Errorf("type %d missing", op)
		}
	}
	if km.Lookup(206) != nil || (*Table)(nil).Lookup(205) != nil {
		t.Error("undeclared type found")
	}
	var w codec.Writer
	w.U8(205)
	w.I32(0x3FFFFFFF)
	w.I32(3)
	vs, err := km.Lookup(205).Decode(w.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := Int(vs, "object"); id != 0x3FFFFFFF {
		t.Errorf("object %x", id)
	}
	if n, _ := Int(vs, "net_player_id"); n != 3 {
		t.Errorf("net player id %d", n)
	}
	// Exact layouts: short, long and oversized messages are refused.
	for name, p := range map[string][]byte{
		"short":     w.Bytes()[:8],
		"long":      append(w.Bytes(), 0),
		"other":     {211, 1, 2, 3, 4},
		"oversized": append([]byte{205}, make([]byte, MaxLen)...),
		"empty":     nil,
	} {
		if _, err := km.Lookup(205).Decode(p); err == nil {
			t.Errorf("%s decoded", name)
		}
	}
}

func TestLayouts(t *testing.T) {
	tab, err := Load(strings.NewReader(`{"name":"t","messages":[{"type":194,"name":"SUBSYSTEM_SET_CONDITION",
	 "fields":[{"name":"ship","type":"i32"},{"name":"subsystem","type":"cstr"},{"name":"condition","type":"i32"}],"policy":"forward"},
	 {"type":208,"name":"MP_CONSTRUCT_MSG","fields":[{"name":"ship","type":"i32"},{"name":"script","type":"str16"},{"name":"f","type":"f32"},{"name":"b","type":"u8"},{"name":"s","type":"i16"},{"name":"rest","type":"bytes"}],"policy":"host","from":"host"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var w codec.Writer
	w.U8(194)
	w.I32(7)
	w.Raw([]byte("Warp Core\x00"))
	w.I32(50)
	vs, err := tab.Lookup(194).Decode(w.Bytes())
	if err != nil || string(vs[1].Bytes) != "Warp Core" || vs[2].Int != 50 {
		t.Fatalf("%+v %v", vs, err)
	}
	if _, err := tab.Lookup(194).Decode([]byte{194, 7, 0, 0, 0, 'x'}); err == nil {
		t.Error("an unterminated cstr decoded")
	}
	w.Reset(nil)
	w.U8(208)
	w.I32(1)
	w.Str16("ships.Galaxy")
	w.F32(1.5)
	w.U8(9)
	w.U16(0xFFFF)
	w.Raw([]byte{1, 2})
	vs, err = tab.Lookup(208).Decode(w.Bytes())
	if err != nil || string(vs[1].Bytes) != "ships.Galaxy" || vs[2].Float != 1.5 || vs[3].Int != 9 || vs[4].Int != -1 || len(vs[5].Bytes) != 2 {
		t.Fatalf("%+v %v", vs, err)
	}
	if tab.Lookup(208).From != FromHost || tab.Lookup(194).From != FromClient {
		t.Error("from")
	}
}

func TestTableRefused(t *testing.T) {
	for name, js := range map[string]string{
		"engine opcode":     `{"messages":[{"type":32,"name":"x","policy":"host"}]}`,
		"chat":              `{"messages":[{"type":44,"name":"x","policy":"host"}]}`,
		"twice":             `{"messages":[{"type":200,"name":"a","policy":"host"},{"type":200,"name":"b","policy":"host"}]}`,
		"bad policy":        `{"messages":[{"type":200,"name":"a","policy":"relay"}]}`,
		"apply no effect":   `{"messages":[{"type":200,"name":"a","policy":"apply"}]}`,
		"effect no apply":   `{"messages":[{"type":211,"name":"a","fields":[{"name":"object","type":"i32"}],"effect":"delete_object","policy":"forward"}]}`,
		"effect fields":     `{"messages":[{"type":211,"name":"a","effect":"delete_object","policy":"apply"}]}`,
		"owner not i32":     `{"messages":[{"type":200,"name":"a","fields":[{"name":"o","type":"u8"}],"owner":"o","policy":"host"}]}`,
		"bytes not last":    `{"messages":[{"type":200,"name":"a","fields":[{"name":"b","type":"bytes"},{"name":"c","type":"u8"}],"policy":"host"}]}`,
		"unknown kind":      `{"messages":[{"type":200,"name":"a","fields":[{"name":"b","type":"i64"}],"policy":"host"}]}`,
		"unknown key":       `{"messages":[{"type":200,"name":"a","policy":"host","forward":true}]}`,
		"type out of range": `{"messages":[{"type":300,"name":"a","policy":"host"}]}`,
		"from":              `{"messages":[{"type":200,"name":"a","policy":"host","from":"anyone"}]}`,
	} {
		if _, err := Load(strings.NewReader(js)); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{205, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{194, 1, 2, 3, 4, 'a', 0, 1, 2, 3, 4})
	tab, _ := Load(strings.NewReader(`{"messages":[{"type":194,"name":"c","fields":[{"name":"ship","type":"i32"},{"name":"s","type":"cstr"},{"name":"n","type":"str16"},{"name":"m","type":"str8"},{"name":"r","type":"bytes"}],"policy":"forward"}]}`))
	km := KobayashiMaru()
	f.Fuzz(func(t *testing.T, p []byte) {
		if len(p) == 0 {
			return
		}
		for _, tb := range []*Table{tab, km} {
			if m := tb.Lookup(p[0]); m != nil {
				_, _ = m.Decode(p)
			}
		}
	})
}
