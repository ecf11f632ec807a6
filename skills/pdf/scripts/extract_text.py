#!/usr/bin/env python3
"""Extract text from a PDF with pypdf, page by page.

Prints each selected page's text, preceded by a "=== page N ===" marker, to
standard output or to a file. Pages that yield (almost) no text are listed on
standard error, because they are usually scanned images that need OCR.

Requires pypdf:  python3 -m pip install pypdf
"""

import argparse
import sys

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_NO_TEXT = 3
MIN_CHARS = 20  # pages with fewer non-space characters count as "empty"


def parse_pages(spec, page_count):
    """Turn a 1-based spec like "1-3,7,10-" into a sorted list of 0-based indexes."""
    if not spec:
        return list(range(page_count))
    selected = set()
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            if "-" in part:
                start_text, end_text = part.split("-", 1)
                start = int(start_text) if start_text.strip() else 1
                end = int(end_text) if end_text.strip() else page_count
            else:
                start = end = int(part)
        except ValueError:
            raise ValueError(f"invalid page range {part!r}") from None
        if start < 1 or end < start:
            raise ValueError(f"invalid page range {part!r}")
        if start > page_count:
            raise ValueError(f"page {start} is out of range (document has {page_count} pages)")
        selected.update(range(start - 1, min(end, page_count)))
    if not selected:
        raise ValueError(f"page spec {spec!r} selects no pages")
    return sorted(selected)


def build_parser():
    parser = argparse.ArgumentParser(
        description="Extract text from a PDF using pypdf, with page markers.",
        epilog=(
            "Examples:\n"
            "  python3 extract_text.py report.pdf\n"
            "  python3 extract_text.py report.pdf --pages 1-3,7 -o report.txt\n"
            "  python3 extract_text.py scan.pdf --layout --password secret\n"
            "\n"
            "Exit codes: 0 success, 1 error (missing file, unreadable PDF, bad\n"
            "password, pypdf not installed), 2 bad arguments, 3 no text found\n"
            "(the PDF is probably scanned: run OCR first)."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("pdf", help="path to the input PDF")
    parser.add_argument("-o", "--output", help="write text to this file instead of stdout")
    parser.add_argument("-p", "--pages", help="1-based pages to extract, e.g. 1-3,7,10- (default: all)")
    parser.add_argument("--password", help="password for an encrypted PDF")
    parser.add_argument("--layout", action="store_true",
                        help="keep the physical layout (columns, spacing) where possible")
    parser.add_argument("--no-markers", action="store_true",
                        help="omit the '=== page N ===' lines between pages")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)

    try:
        from pypdf import PdfReader
        from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError, PyPdfError
    except ImportError:
        print("error: pypdf is not installed; run: python3 -m pip install pypdf", file=sys.stderr)
        return EXIT_ERROR

    try:
        reader = PdfReader(args.pdf)
        if reader.is_encrypted:
            # Many PDFs are encrypted with an empty user password; try it first.
            if not reader.decrypt(args.password or ""):
                hint = "wrong password" if args.password else "encrypted PDF; pass --password"
                print(f"error: {args.pdf}: {hint}", file=sys.stderr)
                return EXIT_ERROR
        page_count = len(reader.pages)
    except FileNotFoundError:
        print(f"error: file not found: {args.pdf}", file=sys.stderr)
        return EXIT_ERROR
    except IsADirectoryError:
        print(f"error: is a directory: {args.pdf}", file=sys.stderr)
        return EXIT_ERROR
    except DependencyError as exc:
        # AES-encrypted files need an extra package: python3 -m pip install "pypdf[crypto]"
        print(f"error: {args.pdf}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except FileNotDecryptedError as exc:
        print(f"error: {args.pdf}: cannot decrypt: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except (PdfReadError, PyPdfError, OSError, ValueError) as exc:
        print(f"error: {args.pdf}: not a readable PDF: {exc}", file=sys.stderr)
        return EXIT_ERROR

    try:
        indexes = parse_pages(args.pages, page_count)
    except ValueError as exc:
        print(f"error: --pages: {exc}", file=sys.stderr)
        return 2

    mode = "layout" if args.layout else "plain"
    chunks = []
    empty_pages = []
    for index in indexes:
        try:
            text = reader.pages[index].extract_text(extraction_mode=mode) or ""
        except Exception as exc:  # pypdf can fail on individual malformed pages
            print(f"warning: page {index + 1}: extraction failed: {exc}", file=sys.stderr)
            text = ""
        if len("".join(text.split())) < MIN_CHARS:
            empty_pages.append(index + 1)
        if not args.no_markers:
            chunks.append(f"=== page {index + 1} ===")
        chunks.append(text.rstrip("\n"))
    output = "\n".join(chunks) + "\n"

    try:
        if args.output:
            with open(args.output, "w", encoding="utf-8") as handle:
                handle.write(output)
        else:
            sys.stdout.write(output)
    except OSError as exc:
        print(f"error: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
        return EXIT_ERROR

    print(f"extracted {len(indexes)} of {page_count} pages", file=sys.stderr)
    if empty_pages:
        listed = ", ".join(str(n) for n in empty_pages[:20])
        more = " ..." if len(empty_pages) > 20 else ""
        print(f"warning: little or no text on page(s) {listed}{more}; "
              "these may be scanned images that need OCR", file=sys.stderr)
    if len(empty_pages) == len(indexes):
        return EXIT_NO_TEXT
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
