#!/usr/bin/python3
"""A real SMTP server for the tests (Debian's python3-aiosmtpd) on 127.0.0.1 and a port it picks.

Every message it accepts goes into a Maildir (one file each, in new/, written before the server
answers 250); the port is written to a file once it listens. A recipient whose mailbox starts
with "nobody" is refused for good (550), as a relay refuses an address that does not exist.

usage: smtp_sink.py MAILDIR PORT_FILE
"""
import asyncio
import os
import sys

from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import SMTP


class Sink(Mailbox):
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("nobody"):
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"


async def main(maildir, port_file):
    handler = Sink(maildir)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(handler), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    with open(port_file + ".tmp", "w") as f:
        f.write(str(port))
    os.rename(port_file + ".tmp", port_file)
    await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
