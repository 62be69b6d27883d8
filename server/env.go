package server

import (
	"encoding"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// envPrefix starts every configuration variable: BCSERVER_<SECTION>_<KEY>,
// e.g. BCSERVER_SERVER_PORT=22102 or BCSERVER_GAMESPY_ENABLED=false.
const envPrefix = "BCSERVER_"

// applyEnv sets every key named by an environment variable over c (the
// file's values; flags come after). Lists are comma-separated. [mission]
// keys are free-form: BCSERVER_MISSION_TIME_LIMIT=10 sets time_limit, a
// number or true/false when it parses as one. An unknown BCSERVER_
// variable is an error, like an unknown key in the file.
func applyEnv(c *Config, environ []string) error {
	vars := map[string]string{}
	renamed := map[string]string{} // new name -> the old one it was given as
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(k, envPrefix) {
			continue
		}
		if now, old := renamedEnv(k); old {
			renamed[now] = k
			k = now
		}
		if _, dup := vars[k]; dup && renamed[k] != "" {
			return fmt.Errorf("both %s and %s: the first is the old name of the second; keep one", renamed[k], k)
		}
		vars[k] = v
	}
	for _, now := range slices.Sorted(maps.Keys(renamed)) {
		c.notes = append(c.notes, fmt.Sprintf("%s is now %s: the old name still works; rename the variable", renamed[now], now))
	}
	if len(vars) == 0 {
		return nil
	}
	known := map[string]reflect.Value{}
	envFields(reflect.ValueOf(c).Elem(), strings.TrimSuffix(envPrefix, "_"), known)
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	var unknown []string
	for _, k := range names {
		v := vars[k]
		if rest, ok := strings.CutPrefix(k, envPrefix+"MISSION_"); ok && rest != "" {
			if c.Mission == nil {
				c.Mission = MissionSection{}
			}
			key := strings.ToLower(rest)
			c.Mission[key] = missionValue(v)
			if c.missionEnv == nil {
				c.missionEnv = map[string]string{}
			}
			c.missionEnv[key] = k
			continue
		}
		f, ok := known[k]
		if !ok {
			if k == "BCSERVER_CONFIG" {
				continue
			}
			unknown = append(unknown, k)
			continue
		}
		if err := setField(f, v); err != nil {
			return fmt.Errorf("%s=%q: %w", k, v, err)
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("unknown variable(s) %s", strings.Join(unknown, ", "))
	}
	return nil
}

// envFields maps variable names to the settable fields of a section tree.
func envFields(v reflect.Value, prefix string, out map[string]reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := strings.Split(sf.Tag.Get("toml"), ",")[0]
		if tag == "" || tag == "-" || !sf.IsExported() {
			continue
		}
		name := prefix + "_" + strings.ToUpper(tag)
		fv := v.Field(i)
		if fv.Kind() == reflect.Struct && !isText(fv) {
			envFields(fv, name, out)
			continue
		}
		if fv.Kind() == reflect.Map {
			continue // [mission]: handled by name
		}
		out[name] = fv
	}
}

func isText(v reflect.Value) bool {
	_, ok := v.Addr().Interface().(encoding.TextUnmarshaler)
	return ok
}

func setField(f reflect.Value, s string) error {
	if u, ok := f.Addr().Interface().(encoding.TextUnmarshaler); ok {
		return u.UnmarshalText([]byte(s))
	}
	switch f.Kind() {
	case reflect.String:
		f.SetString(s)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("want true or false")
		}
		f.SetBool(b)
	case reflect.Int, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("want an integer")
		}
		f.SetInt(n)
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("want a number")
		}
		f.SetFloat(x)
	case reflect.Slice:
		var list []string
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				list = append(list, p)
			}
		}
		switch f.Type().Elem().Kind() {
		case reflect.String:
			f.Set(reflect.ValueOf(list))
		case reflect.Int:
			ns := make([]int, len(list))
			for i, p := range list {
				n, err := strconv.Atoi(p)
				if err != nil {
					return fmt.Errorf("want a comma-separated list of integers")
				}
				ns[i] = n
			}
			f.Set(reflect.ValueOf(ns))
		default:
			return fmt.Errorf("unsupported list")
		}
	default:
		return fmt.Errorf("unsupported type %s", f.Type())
	}
	return nil
}

// missionValue reads a [mission] value the way TOML would type it.
func missionValue(s string) any {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n
	}
	if b, err := strconv.ParseBool(s); err == nil {
		return b
	}
	if x, err := strconv.ParseFloat(s, 64); err == nil {
		return x
	}
	return s
}
