package source

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// extractTar writes a tar stream into dst. With strip, the first path element
// (release tarballs' "redis-x.y.z/") is removed. Paths and symlinks escaping
// dst are refused.
func extractTar(r io.Reader, dst string, strip bool) error {
	tr := tar.NewReader(r)
	n := 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read archive: %w", err)
		}
		name := h.Name
		if strip {
			_, rest, ok := strings.Cut(strings.TrimPrefix(name, "./"), "/")
			if !ok || rest == "" {
				continue
			}
			name = rest
		}
		clean := filepath.Clean(name)
		if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
			return fmt.Errorf("archive entry %q escapes the target directory", h.Name)
		}
		path := filepath.Join(dst, clean)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o777|0o600)
			if err != nil {
				return err
			}
			if _, err := io.Copy(f, tr); err != nil {
				f.Close()
				return fmt.Errorf("extract %s: %w", name, err)
			}
			if err := f.Close(); err != nil {
				return err
			}
			n++
		case tar.TypeSymlink:
			// A link out of dst would let a later entry write through it.
			target := filepath.Clean(filepath.Join(filepath.Dir(clean), h.Linkname))
			if filepath.IsAbs(h.Linkname) || target == ".." || strings.HasPrefix(target, "../") {
				return fmt.Errorf("archive symlink %q points outside the target directory (%s)", h.Name, h.Linkname)
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			os.Remove(path)
			if err := os.Symlink(h.Linkname, path); err != nil {
				return err
			}
		}
	}
	if n == 0 {
		return errors.New("archive has no files")
	}
	return nil
}

// extractTarGz extracts a .tar.gz file, stripping its top directory.
func extractTarGz(path, dst string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return extractTar(zr, dst, true)
}
