package engine

// EvTeamsBalanced is raised when the server assigned the players' teams
// from their ratings (plugins/ratings, [ratings] balance): the mission
// applies the assignment to its own tables and tells the clients.
const EvTeamsBalanced = "teams_balanced"

// TeamsBalanced maps player ids to the team each is assigned.
type TeamsBalanced struct {
	Teams map[byte]int
}

// Name implements Event.
func (*TeamsBalanced) Name() string { return EvTeamsBalanced }

// TeamMode reports whether the mission said it has teams
// (SetTeamMode).
func (g *Game) TeamMode() bool { return g.teamMode }
