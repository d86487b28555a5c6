// A table connection: one websocket that joins as a seat (or spectator), reconnects by
// itself, and hands every frame to the page. The server's frames are documented in
// thievery/server/sockets.py.

// A connection can die without a word: a phone between networks, a NAT that forgot it, a
// laptop asleep. The browser then says nothing for minutes (its socket stays "open", a new
// one stays "connecting"), so the page checks itself: a connection that has not opened in
// OPEN_MS, or says nothing for PONG_MS after a ping, is given up and another made. It pings
// after QUIET_MS without a frame, or ASK_MS after a frame of its own went unanswered (an
// action clicked into a dead connection is found out in seconds, not minutes).
const OPEN_MS = 10000;
const QUIET_MS = 15000;
const ASK_MS = 3000;
const PONG_MS = 6000;

export class TableConnection {
  /**
   * @param {string} tableId
   * @param {string|null} token  the seat's token; null to watch
   * @param {(frame: object) => void} onFrame
   * @param {(status: "open"|"closed"|"connecting") => void} onStatus
   * @param {string|null} made  a key made here for the seat, if the token is an invite: joined
   *   again with both after a welcome lost on the way, the seat is still this browser's
   */
  constructor(tableId, token, onFrame, onStatus, made = null) {
    this.tableId = tableId;
    this.token = token;
    this.made = made;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.timer = setInterval(() => this.check(), 1000);
    // (the network is back: try now, not at the end of the backoff)
    this.online = () => { if (this.ws?.readyState !== WebSocket.OPEN) this.drop(true); };
    window.addEventListener("online", this.online);
    this.connect();
  }

  /** Every second: give up a connection that does not open or no longer answers. */
  check() {
    const ws = this.ws;
    if (!ws || this.closed) return;
    const now = Date.now();
    if (ws.readyState === WebSocket.CONNECTING) {
      if (now - this.started > OPEN_MS) this.drop();
    } else if (ws.readyState === WebSocket.OPEN) {
      if (this.pinged) {
        if (now - this.pinged > PONG_MS) this.drop();
      } else if (now - (this.heard || this.started) > QUIET_MS || (this.asked && now - this.asked > ASK_MS)) {
        ws.send(JSON.stringify({ type: "ping", id: null }));
        this.pinged = now;
      }
    }
  }

  /** Forget the current socket (it may never close by itself) and connect again: at once
   * if ``now``, else after the backoff. */
  drop(now = false) {
    const ws = this.ws;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = null;
      try { ws.close(); } catch { /* closing already */ }
    }
    this.ws = null;
    this.reconnect(now);
  }

  reconnect(now = false) {
    this.onStatus("closed");
    if (this.closed) return;
    clearTimeout(this.again);
    const delay = now ? 0 : Math.min(10000, 500 * 2 ** this.retry++);
    this.again = setTimeout(() => this.connect(), delay);
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/api/tables/${encodeURIComponent(this.tableId)}/ws`);
    this.ws = ws;
    this.started = Date.now();
    this.heard = this.asked = this.pinged = 0; // (heard: when the table last said something)
    this.onStatus("connecting");
    ws.onopen = () => {
      const join = this.token ? { type: "join", token: this.token } : { type: "join" };
      if (this.token && this.made) join.key = this.made;
      ws.send(JSON.stringify(join));
      this.asked = Date.now(); // ("connected" once the table answers: see onmessage)
    };
    ws.onmessage = (message) => {
      if (!this.heard) {
        this.retry = 0;
        this.onStatus("open");
      }
      this.heard = Date.now();
      this.asked = this.pinged = 0;
      let frame;
      try { frame = JSON.parse(message.data); } catch { return; }
      if (frame.type === "welcome" && frame.key) {
        // The invite was exchanged for the seat's own key: it joins with the key from now on.
        this.token = frame.key;
        this.made = null;
      }
      if (frame.type === "error" && ["auth/token", "auth/invite_used", "auth/revoked"].includes(frame.code) && this.token) {
        // A token this table does not know (a mistyped invite link, a seat taken since), an
        // invite its player used already, or a link the host's new invite for the seat made
        // worthless: watch instead, rather than be dropped for not joining and reconnect for
        // ever. (A seated connection told auth/revoked is closed; the next one watches.)
        this.token = null;
        this.made = null;
        ws.send(JSON.stringify({ type: "join" }));
      }
      this.onFrame(frame);
    };
    ws.onclose = () => this.reconnect();
  }

  /** Send one frame; false if the socket is not open (the page will resync on reconnect). */
  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    this.asked ||= Date.now();
    return true;
  }

  close() {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.again);
    window.removeEventListener("online", this.online);
    this.ws?.close();
  }
}
