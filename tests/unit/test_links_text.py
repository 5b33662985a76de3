"""Web and e-mail addresses found in a text (``links.py``): whole, without the punctuation that
ends a sentence or closes a bracket around them, and never a dotted name of code."""

import pytest

from fanyi.text.links import links


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Contact support@example.com.", ["support@example.com"]),
        ("请发邮件到 zhang.wei+nmt@mail.example.cn，谢谢。", ["zhang.wei+nmt@mail.example.cn"]),
        ("See https://docs.python.org/3/library/os.html for details.",
         ["https://docs.python.org/3/library/os.html"]),
        ("访问https://github.com/pytorch/pytorch获取代码。", ["https://github.com/pytorch/pytorch"]),
        ("(see http://www.nhc.gov.cn/), and", ["http://www.nhc.gov.cn/"]),
        ("https://en.wikipedia.org/wiki/Go_(game) is a page.",
         ["https://en.wikipedia.org/wiki/Go_(game)"]),
        ("Open www.12377.cn or www.12321.cn!", ["www.12377.cn", "www.12321.cn"]),
        ("at ftp://ftp.example.org/pub, or ftp://ftp.example.org/pub again",
         ["ftp://ftp.example.org/pub"]),
        ('<a href="https://x.org/?q=1&r=2">', ["https://x.org/?q=1&r=2"]),
        ("log in as user@host: ssh user@host.example.com", ["user@host.example.com"]),
        ("Call os.path.join() or python.org, not a link.", []),
        ("an @mention and a@b are not addresses", []),
        ("www. is only a prefix", []),
    ],
)  # fmt: skip
def test_links_are_found_whole(text, expected):
    assert links(text) == expected
