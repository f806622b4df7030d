package source

import (
	"bufio"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// Digest is one line of the redis-hashes list: the upstream digest of a release tarball.
type Digest struct {
	File string // e.g. redis-7.4.1.tar.gz
	Algo string // sha1 or sha256
	Hex  string
	URL  string
}

// ParseHashes reads the redis-hashes README format:
// "hash redis-7.4.1.tar.gz sha256 <hex> <url>". Other lines are ignored.
func ParseHashes(r io.Reader) (map[string]Digest, error) {
	out := map[string]Digest{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || f[0] != "hash" {
			continue
		}
		d := Digest{File: f[1], Algo: f[2], Hex: strings.ToLower(f[3])}
		if len(f) > 4 {
			d.URL = f[4]
		}
		out[d.File] = d
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no 'hash' lines found")
	}
	return out, nil
}

// LoadHashes reads the list from a local file or an http(s) URL.
func LoadHashes(ctx context.Context, where string) (map[string]Digest, error) {
	var r io.ReadCloser
	if strings.HasPrefix(where, "http://") || strings.HasPrefix(where, "https://") {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, where, nil)
		if err != nil {
			return nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, fmt.Errorf("hashes %s: %w", where, err)
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return nil, fmt.Errorf("hashes %s: HTTP %s", where, resp.Status)
		}
		r = resp.Body
	} else {
		f, err := os.Open(where)
		if err != nil {
			return nil, fmt.Errorf("hashes: %w", err)
		}
		r = f
	}
	defer r.Close()
	h, err := ParseHashes(r)
	if err != nil {
		return nil, fmt.Errorf("hashes %s: %w", where, err)
	}
	return h, nil
}

// Tarballs finds release tarballs in a directory: redis-<v>.tar.gz, or Debian's
// redis_<v>.orig.tar.gz. With Hashes set, every tarball must be listed and match.
type Tarballs struct {
	Dir    string
	Hashes map[string]Digest
}

// Fetch verifies and extracts the tarball of version.
func (t Tarballs) Fetch(ctx context.Context, version, dst string) (Tree, error) {
	name, err := t.find(version)
	if err != nil {
		return Tree{}, err
	}
	return extractVerified(filepath.Join(t.Dir, name), "tarball", name, version, t.Hashes, dst)
}

// Resolve says which tarball version is built from: its sha256.
func (t Tarballs) Resolve(ctx context.Context, version string) (Origin, error) {
	name, err := t.find(version)
	if err != nil {
		return Origin{}, err
	}
	sum, err := fileDigest(filepath.Join(t.Dir, name), sha256.New())
	if err != nil {
		return Origin{}, err
	}
	return Origin{Kind: "tarball", ID: sum, Says: fmt.Sprintf("%s has sha256 %s", name, sum)}, nil
}

// find returns the name of version's tarball in the directory.
func (t Tarballs) find(version string) (string, error) {
	for _, name := range []string{"redis-" + version + ".tar.gz", "redis_" + version + ".orig.tar.gz"} {
		if _, err := os.Stat(filepath.Join(t.Dir, name)); err == nil {
			return name, nil
		}
	}
	return "", fmt.Errorf("%w %q: no redis-%s.tar.gz in %s", ErrUnknownVersion, version, version, t.Dir)
}

// Download gets official tarballs from the Redis download site into Dir and verifies them.
type Download struct {
	BaseURL string // e.g. https://download.redis.io/releases/
	Dir     string // where downloaded tarballs are kept
	Hashes  map[string]Digest
}

// Fetch downloads (once), verifies and extracts the tarball of version.
func (d Download) Fetch(ctx context.Context, version, dst string) (Tree, error) {
	name := "redis-" + version + ".tar.gz"
	if _, ok := d.Hashes[name]; !ok {
		return Tree{}, fmt.Errorf("%w: %s is not in the redis-hashes list", ErrUnknownVersion, name)
	}
	url := strings.TrimSuffix(d.BaseURL, "/") + "/" + name
	p := filepath.Join(d.Dir, name)
	if _, err := os.Stat(p); err != nil {
		if err := download(ctx, url, p); err != nil {
			return Tree{}, err
		}
	}
	t, err := extractVerified(p, "download", url, version, d.Hashes, dst)
	if err != nil {
		os.Remove(p) // a corrupt download must not be reused
	}
	return t, err
}

// Resolve says which tarball version is built from: its digest in the
// redis-hashes list.
func (d Download) Resolve(ctx context.Context, version string) (Origin, error) {
	name := "redis-" + version + ".tar.gz"
	h, ok := d.Hashes[name]
	if !ok {
		return Origin{}, fmt.Errorf("%w: %s is not in the redis-hashes list", ErrUnknownVersion, name)
	}
	return Origin{Kind: "download", ID: h.Algo + ":" + h.Hex, Says: fmt.Sprintf("%s has %s %s (redis-hashes)", name, h.Algo, h.Hex)}, nil
}

func download(ctx context.Context, url, path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("download %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("download %s: HTTP %s", url, resp.Status)
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("download %s: %w", url, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// extractVerified checks the tarball against hashes (when given) and extracts it.
func extractVerified(path, kind, ref, version string, hashes map[string]Digest, dst string) (Tree, error) {
	sum256, err := fileDigest(path, sha256.New())
	if err != nil {
		return Tree{}, err
	}
	tree := Tree{Kind: kind, Ref: ref, SHA256: sum256}
	if hashes != nil {
		official := "redis-" + version + ".tar.gz"
		want, ok := hashes[official]
		if !ok {
			return Tree{}, fmt.Errorf("%s is not in the redis-hashes list: refusing an unverifiable tarball", official)
		}
		got := sum256
		if want.Algo == "sha1" {
			if got, err = fileDigest(path, sha1.New()); err != nil {
				return Tree{}, err
			}
		} else if want.Algo != "sha256" {
			return Tree{}, fmt.Errorf("redis-hashes lists %s with unknown algorithm %q", official, want.Algo)
		}
		if got != want.Hex {
			return Tree{}, fmt.Errorf("checksum mismatch for %s: %s %s, upstream says %s", filepath.Base(path), want.Algo, got, want.Hex)
		}
		tree.Verified = true
	}
	if err := extractTarGz(path, dst); err != nil {
		return Tree{}, err
	}
	return tree, nil
}

func fileDigest(path string, h hash.Hash) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Has checks that the directory has a tarball of version.
func (t Tarballs) Has(version string) error {
	_, err := t.find(version)
	return err
}

// Has checks that the version is an official release listed in redis-hashes.
func (d Download) Has(version string) error {
	if _, ok := d.Hashes["redis-"+version+".tar.gz"]; !ok {
		return fmt.Errorf("%w %q: redis-%s.tar.gz is not in the redis-hashes list", ErrUnknownVersion, version, version)
	}
	return nil
}
