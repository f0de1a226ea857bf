package arena

import (
	"context"
	"fmt"

	"arena/arena/config"
	"arena/engines/uci"
)

// StartEngine runs e's process exactly as arena run starts a player (a
// built-in engine as "binary uci ENGINE --option ...", an external one as
// its command, options set over UCI), for commands that drive an engine
// outside a match, with the given timeouts. The caller closes the client.
func StartEngine(ctx context.Context, e config.EngineConfig, binary string, t uci.Timeouts) (*uci.Client, error) {
	if e.Builtin() && binary == "" {
		return nil, fmt.Errorf("engine %q is built-in (%s) but no arena binary was given to run it with", e.Name, e.Engine)
	}
	p := &player{cfg: e, timeouts: t}
	if err := p.start(ctx, binary, config.DefaultTimeMargin); err != nil {
		return nil, err
	}
	return p.client, nil
}
