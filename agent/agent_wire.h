/*
 * agent_wire.h - what stap and stapc-agent say to each other over one byte
 * stream: stap --remote=unix:PATH (docs/remote.md), PATH being a Unix socket
 * that reaches an agent: a VM's virtio-serial port that QEMU exposes as a
 * socket, or a socket the agent listens on itself.
 *
 * It carries what the ssh transport carries in its three pipes and its exit
 * status (remote_ssh.c): the module and staprun's command line one way,
 * staprun's stdout, stderr and status the other, and a stop request. Every
 * message is a frame: a type byte, a 4-byte big-endian length, the bytes.
 *
 *   agent -> stap  AGENT_HELLO  "stapc-agent-1 RELEASE MACHINE", first, at once
 *                  AGENT_OUT    bytes of staprun's stdout
 *                  AGENT_ERR    bytes of staprun's stderr (and the agent's own messages)
 *                  AGENT_EXIT   staprun's exit status in decimal (128+N if killed by N); last
 *                  AGENT_ALIVE  empty, every AGENT_ALIVE_SEC seconds: the agent is still there
 *   stap -> agent  AGENT_OPTION one word of staprun's options (in order, before the module)
 *                  AGENT_NAME   the module's file name, NAME.ko
 *                  AGENT_DATA   the next bytes of the module
 *                  AGENT_SIG    the module's signature file (a compile server's NAME.ko.sgn)
 *                  AGENT_PARAM  one module parameter NAME=VALUE (in order, after the module)
 *                  AGENT_RUN    empty: run staprun OPTIONS DIR/NAME.ko PARAMS now
 *                  AGENT_STOP   empty: end the session as Ctrl-C does (end probes, all
 *                               output, unload); the end of the stream means the same
 *
 * After AGENT_EXIT stap closes the stream; the agent then waits for the next.
 */
#ifndef STAPC_AGENT_WIRE_H
#define STAPC_AGENT_WIRE_H

#define AGENT_MAGIC "stapc-agent-1"
#define AGENT_PORT_NAME "org.stapc.agent"	/* the virtio-serial port's name (stapvm --agent) */
#define AGENT_ALIVE_SEC 5			/* an AGENT_ALIVE at least this often */
#define AGENT_SILENCE_SEC 15			/* stap gives a silent agent up after this */
#define AGENT_FRAME_MAX 65536			/* no frame is longer */
#define AGENT_MODULE_MAX (256u << 20)		/* nor a module */

enum agent_frame {
	AGENT_HELLO = 'H',
	AGENT_OUT = 'O',
	AGENT_ERR = 'E',
	AGENT_EXIT = 'X',
	AGENT_ALIVE = 'K',
	AGENT_OPTION = 'o',
	AGENT_NAME = 'n',
	AGENT_DATA = 'd',
	AGENT_SIG = 's',
	AGENT_PARAM = 'p',
	AGENT_RUN = 'r',
	AGENT_STOP = 'S',
};

#endif
