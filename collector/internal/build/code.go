package build

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
)

// CodeSHA256 is the SHA-256 of what the loader maps of an ELF executable:
// the name, address, size and bytes of every allocated section (.text, .rodata,
// .data, .plt, .got, ...; of .bss only name and size) in file order, notes
// left out. Two builds with the same code hash execute the same
// instructions from the same addresses. The file's own hash would differ
// between them: the debug information holds the build directory, and the
// GNU build-id note is a hash of the whole file.
func CodeSHA256(path string) (string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	for _, s := range f.Sections {
		if s.Flags&elf.SHF_ALLOC == 0 || s.Type == elf.SHT_NOTE {
			continue
		}
		fmt.Fprintf(h, "%s\x00%d\x00", s.Name, s.Addr)
		binary.Write(h, binary.LittleEndian, s.Size)
		if s.Type == elf.SHT_NOBITS {
			continue
		}
		if _, err := io.Copy(h, s.Open()); err != nil {
			return "", fmt.Errorf("%s: section %s: %w", path, s.Name, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
