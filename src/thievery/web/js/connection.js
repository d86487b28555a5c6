// A table connection: one websocket that joins as a seat (or spectator), reconnects by
// itself, and hands every frame to the page. The server's frames are documented in
// thievery/server/sockets.py.

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
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/api/tables/${encodeURIComponent(this.tableId)}/ws`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      this.retry = 0;
      const join = this.token ? { type: "join", token: this.token } : { type: "join" };
      if (this.token && this.made) join.key = this.made;
      ws.send(JSON.stringify(join));
      this.onStatus("open");
    };
    ws.onmessage = (message) => {
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
    ws.onclose = () => {
      this.onStatus("closed");
      if (this.closed) return;
      const delay = Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    };
  }

  /** Send one frame; false if the socket is not open (the page will resync on reconnect). */
  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }
}
